import Dispatch

/// The lifecycle of one singleton, as one value behind its node's lock: every transition is a
/// mutating method that returns what its caller must do once the lock is released.
///
/// | state | claim | built | failed | whenReady | retire (replaced) |
/// | --- | --- | --- | --- | --- | --- |
/// | idle(n) | → building(n+1): `claimed` | – | – | queued | → retired: hands its queued work to the replacement |
/// | building(owner, n) | owner: `ownedBySelf` (a cycle); others: `busy(latch)` | → ready: wake waiters, deliver work | → idle(n): wake waiters | queued | refused |
/// | ready | `ready` | – | – | delivered at once, or after work queued before it | refused |
/// | retired(by) | `replaced(by)` | – | – | forwarded to `by` | refused |
///
/// ("–": cannot happen; `built` and `failed` come only from the owner of a build, once.)
/// Work queued before the build is delivered in order: while the builder hands it to its
/// queues (outside the lock), later work joins the queue behind it instead of overtaking it.
struct SlotState {
  private enum State {
    case idle(attempts: Int)
    case building(Building)
    case ready
    case retired(replacement: AnyNode)
  }

  /// A build under way: who runs it, which attempt it is, and the latch other contexts wait on,
  /// made by the first of them (most builds have no waiter, and allocate none).
  private struct Building {
    let owner: BuildContext
    let attempt: Int
    var latch: BuildLatch?
  }

  private var state = State.idle(attempts: 0)
  /// Work handed to the service before it was built (or while earlier work is being handed
  /// over), delivered in order once it is.
  private var pending: [PendingWork] = []
  /// Whether a thread is handing `pending` to its queues.
  private var delivering = false
  /// What a factory that resolves its own dependencies resolved in past builds.
  private(set) var observed: [AnyServiceKey] = []
  /// A transient service's recorded makings (``Recorder``), from its first.
  var transients: TransientTally?

  /// What a context gets when it asks to build the service.
  enum Claim {
    /// Built already.
    case ready
    /// This context now builds it (this attempt), and must end it with `built` or `failed`.
    case claimed(attempt: Int)
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
    /// Hand it to its queue now.
    case now
    /// The registration was replaced: hand the work to the replacement.
    case forward(AnyNode)
  }

  /// What the end of a build leaves to do: the waiters to wake, and queued work to deliver
  /// (then call ``delivered()`` until it returns nothing).
  struct Ending {
    let wake: DispatchGroup?
    let deliver: [PendingWork]
  }

  mutating func claim(by context: BuildContext) -> Claim {
    switch state {
    case .ready:
      return .ready
    case .retired(let replacement):
      return .replaced(replacement)
    case .idle(let attempts):
      state = .building(Building(owner: context, attempt: attempts + 1))
      return .claimed(attempt: attempts + 1)
    case .building(var building):
      if building.owner === context { return .ownedBySelf }
      if let latch = building.latch { return .busy(latch) }
      let latch = BuildLatch(owner: building.owner, attempt: building.attempt)
      building.latch = latch
      state = .building(building)
      return .busy(latch)
    }
  }

  /// The context building the service, if a build is under way.
  var builder: BuildContext? {
    if case .building(let building) = state { return building.owner }
    return nil
  }

  /// Whether the service was never built nor is being built: it may still be replaced.
  var isIdle: Bool {
    if case .idle = state { return true }
    return false
  }

  /// Whether the service is built.
  var isReady: Bool {
    if case .ready = state { return true }
    return false
  }

  /// Ends the build under way with the value published.
  mutating func built(attempt: Int) -> Ending {
    let latch = end(attempt: attempt)
    state = .ready
    delivering = !pending.isEmpty
    defer { pending = [] }
    return Ending(wake: latch?.finish(.built), deliver: pending)
  }

  /// Ends the build under way with a failure: the next resolve tries again. Queued work stays
  /// queued until a later build succeeds.
  mutating func failed(attempt: Int, _ error: DeferredError) -> DispatchGroup? {
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

  /// Takes work handed to the service: `ahead` for work that was queued for a registration
  /// this one replaced, which came before any handed to this one.
  mutating func receive(_ work: [PendingWork], ahead: Bool = false) -> Delivery {
    switch state {
    case .retired(let replacement):
      return .forward(replacement)
    case .ready where !delivering:
      return .now
    default:
      pending.insert(contentsOf: work, at: ahead ? 0 : pending.endIndex)
      return .queued
    }
  }

  /// After the builder handed queued work over: the work that came meanwhile, or nothing (the
  /// handing over is done).
  mutating func delivered() -> [PendingWork] {
    delivering = !pending.isEmpty
    defer { pending = [] }
    return pending
  }

  /// Marks the service replaced by a new registration, if it was never built nor is being
  /// built; returns the work queued for it, which now belongs to the replacement.
  mutating func retire(replacedBy replacement: AnyNode) -> [PendingWork]? {
    guard isIdle else { return nil }
    state = .retired(replacement: replacement)
    defer { pending = [] }
    return pending
  }

  /// Notes a dependency that a factory resolving its own dependencies resolved.
  mutating func observe(_ dependency: AnyServiceKey) {
    if !observed.contains(dependency) { observed.append(dependency) }
  }
}

/// Work handed to a service before it is built: what to run on which queue once it is. It
/// takes the node as an argument rather than capturing it, so queued work never keeps its own
/// node alive (node → work → node): when the container goes, the work and what it captured go
/// with it.
struct PendingWork {
  let queue: DispatchQueue
  let work: @Sendable (AnyNode) -> Void

  /// Hands the work to its queue, with `node`'s value.
  func deliver(_ node: AnyNode) {
    queue.async { work(node) }
  }
}
