import Dispatch

/// The lifecycle of one cached service, as one value behind its node's lock: every transition
/// is a mutating method that returns what its caller must do once the lock is released.
///
/// | state | claim | built | failed | whenReady | retire (replaced) | reset |
/// | --- | --- | --- | --- | --- | --- | --- |
/// | idle(n) | → building(n+1): `claimed` | stale only | stale only | queued | → retired: hands its queued work to the replacement | nothing |
/// | building(owner, n) | owner: `ownedBySelf` (a cycle); others: `busy(latch)` | → published or held: wake waiters, deliver work | → idle(n): wake waiters | queued | refused | → idle(n), the build goes stale; generation+1 |
/// | published | `built` | stale only | stale only | delivered at once, or after work queued before it | refused | – (never dropped) |
/// | held(value, n) | `built(value)`; a weak one whose object is gone: → building(n+1) | stale only | stale only | delivered at once | refused | → idle(n), drops the value; generation+1 |
/// | retired(by) | `replaced(by)` | – | – | forwarded to `by` | refused | nothing |
/// | (any, while a reset runs) | idle, held or building and reached by the reset: `resetting(barrier)`, until the reset ends | | | | | |
///
/// ("–": cannot happen; `built` and `failed` come only from the owner of a build, once.)
/// `published`: in the node's lock-free cell, for good. `held`: a weak or named-scope service,
/// or a singleton built with one, whose value lives here so that it can be dropped. A stale
/// build (begun before a reset) ends apart from the state: its value goes to its owner and
/// earlier waiters only (Docs/Design.md, "Weak and named scopes"). Queued work is delivered in
/// order: while the builder hands it over (outside the lock), later work queues behind it.
///
/// A reset bars each service it reaches (``bar(until:)``) in the step that resets it, and lifts
/// the bars (``lift(_:)``) once it has reached them all; a claim of a barred service waits. So
/// no caller gets one service's new generation and then another's old one.
struct SlotState {
  private enum State {
    case idle(attempts: Int)
    case building(Building)
    case published
    case held(Stored, attempts: Int)
    case retired(replacement: AnyNode)
  }

  /// How a held value is kept: a generation's value, or a weak service's weak reference.
  enum Stored {
    case value(AnyObject)
    case weak(WeakObject)
  }

  /// A build under way: who runs it, which attempt, and the latch its first waiter made.
  private struct Building {
    let owner: BuildContext
    private let attempt32: Int32
    private let generation32: Int32
    var latch: BuildLatch?

    init(owner: BuildContext, attempt: Int, generation: Int) {
      self.owner = owner
      attempt32 = Int32(truncatingIfNeeded: attempt)
      generation32 = Int32(truncatingIfNeeded: generation)
    }

    var attempt: Int { Int(attempt32) }
    var generation: Int { Int(generation32) }
  }

  /// The parts of the state most services never use, in a box made on first use and copied on
  /// write, so the state stays a value.
  private final class Rare {
    var pending: [PendingWork] = []
    var observed: [AnyServiceKey] = []
    var generation = 0
    var stale: [Building] = []
    var delivering = false
    /// The reset under way that reached the service: claims wait for it to end.
    var barrier: DispatchGroup?

    func copy() -> Rare {
      let copy = Rare()
      copy.pending = pending
      copy.observed = observed
      copy.generation = generation
      copy.stale = stale
      copy.delivering = delivering
      copy.barrier = barrier
      return copy
    }
  }

  // The box first and the state last: the node packs its small fields after the state.
  private var rare: Rare?
  private var state = State.idle(attempts: 0)

  /// The box, made if need be, and unshared.
  private mutating func unsharedRare() -> Rare {
    guard var box = rare else {
      let made = Rare()
      rare = made
      return made
    }
    rare = nil
    if !isKnownUniquelyReferenced(&box) { box = box.copy() }
    rare = box
    return box
  }

  /// Work handed to the service before it was built (or during a hand-over), kept in order.
  private var pending: [PendingWork] { rare?.pending ?? [] }
  /// What a factory that resolves its own dependencies resolved in past builds.
  var observed: [AnyServiceKey] { rare?.observed ?? [] }
  /// The generation the next build makes: one more per reset, or per rebuild of a weak object.
  var generation: Int { rare?.generation ?? 0 }
  /// Builds begun before a reset, still running: they end apart from the state.
  private var stale: [Building] { rare?.stale ?? [] }
  /// Whether a thread is handing `pending` to its queues.
  private var delivering: Bool { rare?.delivering ?? false }

  /// Takes the queued work, leaving none, and notes whether a thread now hands it over.
  private mutating func takePending(delivering: Bool) -> [PendingWork] {
    guard rare != nil else { return [] }
    let box = unsharedRare()
    box.delivering = delivering
    defer { box.pending = [] }
    return box.pending
  }

  private mutating func enqueue(_ work: [PendingWork], ahead: Bool) {
    let box = unsharedRare()
    box.pending.insert(contentsOf: work, at: ahead ? 0 : box.pending.endIndex)
  }

  private mutating func nextGeneration() {
    unsharedRare().generation += 1
  }

  /// Removes the stale build of `attempt`, if there is one.
  private mutating func removeStale(attempt: Int) -> Building? {
    guard let stale = rare?.stale, !stale.isEmpty,
      let index = stale.firstIndex(where: { $0.attempt == attempt })
    else { return nil }
    return unsharedRare().stale.remove(at: index)
  }

  /// What a context gets when it asks to build the service.
  enum Claim {
    /// Built already: published in the node's cell (`nil`), or held (its value, retained).
    case built(Held?)
    /// This context now builds it, and must end it with `built` or `failed`.
    case claimed(attempt: Int, generation: Int)
    /// Another context is building it: wait on the latch.
    case busy(BuildLatch)
    /// This same context is building it: a dependency cycle.
    case ownedBySelf
    /// The registration was replaced before it was ever built: build the replacement.
    case replaced(AnyNode)
  }

  /// What to do with work handed to the service.
  enum Delivery {
    /// Kept until the service is built.
    case queued
    /// Hand it to its queue now, with the held value (`nil`: the one in the node's cell).
    case now(Held?)
    /// The registration was replaced: hand the work to the replacement.
    case forward(AnyNode)
  }

  /// What the end of a build leaves to do: waiters to wake, and queued work to deliver (then
  /// ``delivered()`` until it returns nothing).
  struct Ending {
    let wake: DispatchGroup?
    /// The work to deliver, `nil` if there is none.
    let work: [PendingWork]?
    /// The value to hand the work, if it is held.
    let value: Held?

    /// The work to deliver.
    var deliver: [PendingWork] { work ?? [] }
  }

  mutating func claim(by context: BuildContext) -> Claim {
    switch state {
    case .published:
      return .built(nil)
    case .held(.value(let object), _):
      return .built(.value(object))
    case .held(.weak(let reference), let attempts):
      if let object = reference.object { return .built(.object(object)) }
      // The last holder let it go: built anew, as a new generation.
      nextGeneration()
      return start(by: context, attempt: attempts + 1)
    case .retired(let replacement):
      return .replaced(replacement)
    case .idle(let attempts):
      return start(by: context, attempt: attempts + 1)
    case .building(var building):
      if building.owner === context { return .ownedBySelf }
      if let latch = building.latch { return .busy(latch) }
      let latch = BuildLatch(owner: building.owner, attempt: building.attempt)
      building.latch = latch
      state = .building(building)
      return .busy(latch)
    }
  }

  /// ``claim(by:)`` of an idle service with no box, what most claims find: the attempt this
  /// context now builds; `nil`, the state untouched, for anything else.
  @inline(__always)
  mutating func claimIdle(by context: BuildContext) -> Int? {
    guard rare == nil, case .idle(let attempts) = state else { return nil }
    state = .building(Building(owner: context, attempt: attempts + 1, generation: 0))
    return attempts + 1
  }

  private mutating func start(by context: BuildContext, attempt: Int) -> Claim {
    state = .building(Building(owner: context, attempt: attempt, generation: generation))
    return .claimed(attempt: attempt, generation: generation)
  }

  var builder: BuildContext? {
    if case .building(let building) = state { return building.owner }
    return nil
  }

  /// Whether the service was never built nor is being built: it may still be replaced.
  var isIdle: Bool {
    if case .idle = state { return true }
    return false
  }

  var isPublished: Bool {
    if case .published = state { return true }
    return false
  }

  var isHeld: Bool {
    if case .held = state { return true }
    return false
  }

  /// The held value, retained, if the service is built and held (a weak one's object alive).
  var held: Held? {
    switch state {
    case .held(.value(let object), _): return .value(object)
    case .held(.weak(let reference), _): return reference.object.map { .object($0) }
    default: return nil
    }
  }

  /// Ends the build of `attempt`, its value published, if there is no waiter and no box;
  /// returns whether it did. Otherwise ``built(attempt:storing:value:)`` ends it.
  mutating func endPublished(attempt: Int) -> Bool {
    guard rare == nil, case .building(let building) = state, building.latch == nil,
      building.attempt == attempt
    else { return false }
    state = .published
    return true
  }

  /// Ends a build: its value published (`storing` is `nil`), or held as `storing` and handed
  /// out as `value`. A stale build leaves the state alone: its value goes to its waiters, and
  /// to work queued before the reset if no new build has begun.
  mutating func built(attempt: Int, storing: Stored? = nil, value: Held? = nil) -> Ending {
    if let building = removeStale(attempt: attempt) {
      let wake = building.latch?.finish(.built(value))
      guard case .idle = state, !delivering, !pending.isEmpty else {
        return Ending(wake: wake, work: nil, value: value)
      }
      return Ending(wake: wake, work: takePending(delivering: true), value: value)
    }
    let wake = end(attempt: attempt)?.finish(.built(value))
    state = storing.map { .held($0, attempts: attempt) } ?? .published
    // Most builds have no queued work (and no box): nothing to hand over.
    guard let rare, !rare.pending.isEmpty else {
      if delivering { unsharedRare().delivering = false }
      return Ending(wake: wake, work: nil, value: value)
    }
    return Ending(wake: wake, work: takePending(delivering: true), value: value)
  }

  /// Ends the build with a failure: the next resolve tries again; queued work stays queued.
  mutating func failed(attempt: Int, _ error: DeferredError) -> DispatchGroup? {
    if let building = removeStale(attempt: attempt) {
      return building.latch?.finish(.failed(error))
    }
    let latch = end(attempt: attempt)
    state = .idle(attempts: attempt)
    return latch?.finish(.failed(error))
  }

  private func end(attempt: Int) -> BuildLatch? {
    guard case .building(let building) = state, building.attempt == attempt else {
      preconditionFailure("a build ended that was not under way")
    }
    return building.latch
  }

  /// Drops the held value (returned, to release outside the lock: its deinit is the app's
  /// code) and starts a new generation; a build under way goes stale. A published value is
  /// never dropped (its readers take no lock).
  mutating func reset() -> Stored? {
    switch state {
    case .held(let stored, let attempts):
      nextGeneration()
      state = .idle(attempts: attempts)
      return stored
    case .building(let building):
      let box = unsharedRare()
      box.generation += 1
      box.stale.append(building)
      state = .idle(attempts: building.attempt)
      return nil
    case .idle, .published, .retired:
      return nil
    }
  }

  /// The reset under way that reached the service, if any: a claim waits for it to end.
  var resetBarrier: DispatchGroup? { rare?.barrier }

  /// Bars claims until `barrier`'s reset ends; a published or replaced service, which the
  /// reset does not change, is not barred.
  mutating func bar(until barrier: DispatchGroup) {
    switch state {
    case .published, .retired: return
    case .idle, .building, .held: unsharedRare().barrier = barrier
    }
  }

  /// Lifts `barrier`, once its reset has reached every service (a later reset's stays).
  mutating func lift(_ barrier: DispatchGroup) {
    if let current = rare?.barrier, current === barrier { unsharedRare().barrier = nil }
  }

  /// Takes work handed to the service: `ahead` for work queued for the registration this one
  /// replaced.
  mutating func receive(_ work: [PendingWork], ahead: Bool = false) -> Delivery {
    switch state {
    case .retired(let replacement):
      return .forward(replacement)
    case .published where !delivering:
      return .now(nil)
    case .held(.value(let object), _) where !delivering:
      return .now(.value(object))
    case .held(.weak(let reference), _) where !delivering:
      if let object = reference.object { return .now(.object(object)) }
      enqueue(work, ahead: ahead)
      return .queued
    default:
      enqueue(work, ahead: ahead)
      return .queued
    }
  }

  /// After the builder handed queued work over: the work that came meanwhile, or none.
  mutating func delivered() -> [PendingWork] {
    takePending(delivering: !pending.isEmpty)
  }

  /// Marks the service replaced, if it is idle; returns its queued work, for the replacement.
  mutating func retire(replacedBy replacement: AnyNode) -> [PendingWork]? {
    guard isIdle else { return nil }
    state = .retired(replacement: replacement)
    return takePending(delivering: delivering)
  }

  /// Notes a dependency that a factory resolving its own dependencies resolved.
  mutating func observe(_ dependency: AnyServiceKey) {
    if !observed.contains(dependency) { unsharedRare().observed.append(dependency) }
  }
}

/// Work to run on a queue once a service is built. It takes the node as an argument rather
/// than capturing it, so queued work never keeps its own node alive.
struct PendingWork {
  let queue: DispatchQueue
  let work: @Sendable (AnyNode, Held?) -> Void

  /// Hands the work to its queue, with `node`'s value (`held`, or the one in its cell).
  func deliver(_ node: AnyNode, _ held: Held?) {
    queue.async { work(node, held) }
  }
}

/// One build of one singleton, which other threads wait on: who runs it, and its outcome. Its
/// Dispatch group is made by the first waiter.
///
/// Safety: its mutable fields are guarded by its node's lock (``AnyNode/withState(_:)``;
/// Docs/Design.md, "Memory safety").
final class BuildLatch: @unchecked Sendable {
  enum Outcome: Sendable {
    /// Built: published in the node's cell (`nil`), or held (the value this build made).
    case built(Held?)
    indirect case failed(DeferredError)
  }

  let owner: BuildContext
  let attempt: Int
  private var outcome: Outcome?
  private var group: DispatchGroup?

  init(owner: BuildContext, attempt: Int) {
    self.owner = owner
    self.attempt = attempt
  }

  /// Sets the outcome, under the node's lock; returns the group to leave once it is released.
  func finish(_ result: Outcome) -> DispatchGroup? {
    outcome = result
    return group
  }

  /// The group to wait on, under the node's lock; `nil` once the build has finished.
  private func waitGroup() -> DispatchGroup? {
    guard outcome == nil else { return nil }
    if let group { return group }
    let group = DispatchGroup()
    group.enter()
    self.group = group
    return group
  }

  /// Blocks until the build of `node` finishes, or until `limit` has passed (then `nil`).
  func wait(for node: AnyNode, limit: Duration?) -> Outcome? {
    if let group = node.withState({ _ in waitGroup() }) {
      // The builder runs at this thread's priority while it waits (Apple platforms).
      let loan = PriorityDonation.begin(to: owner.recipient)
      defer { PriorityDonation.end(loan) }
      if let limit {
        if group.wait(timeout: .after(limit)) == .timedOut { return nil }
      } else {
        group.wait()
      }
    }
    return node.withState { _ in outcome }
  }

  /// Suspends until the build of `node` finishes, blocking no thread.
  func outcome(for node: AnyNode) async -> Outcome {
    if let group = node.withState({ _ in waitGroup() }) {
      await withCheckedContinuation { continuation in
        group.notify(queue: .global()) { continuation.resume() }
      }
    }
    return node.withState { _ in outcome } ?? .built(nil)
  }
}
