/// A container's launch and the deferred builds it schedules, as one state machine: every
/// field is private, every change is a transition, and every transition returns what the
/// container must do about it, outside the launch lock (a ``LaunchWork``, or an error to
/// throw). Nothing here takes a lock, runs a factory or calls a scheduler.
///
/// The container's phases (`paused` is a flag beside them, not a phase):
///
/// | phase         | entered by                                  | left by                        |
/// | ------------- | ------------------------------------------- | ------------------------------ |
/// | `notLaunched` | creation; `endLaunch(succeeded: false)`     | `beginLaunch` → `launching`    |
/// | `launching`   | `beginLaunch`                               | `endLaunch` → `launched`, or back to `notLaunched` |
/// | `launched`    | `endLaunch(succeeded: true)`                | `firstFrameDrawn` → `deferring` (`fullyReady` if nothing is to be built) |
/// | `deferring`   | `firstFrameDrawn`                           | the last scheduled build ends → `fullyReady` |
/// | `fullyReady`  | the last scheduled build ends               | only `shutDown`: a late registration is built, and the app stays ready |
/// | `shutDown`    | `shutDown`, from every phase                | never: `endLaunch` then reports the shutdown |
///
/// Refused: `beginLaunch` out of `notLaunched`, `firstFrameDrawn` before `launched` (both
/// `launchOrder`); `endLaunch` out of `launching` (`launchOrder`, or `shutDown` once shut
/// down). `firstFrameDrawn` again, `adopt`, `releaseIdle`, `appIsIdle` and `resume` in a phase
/// with nothing to schedule do nothing.
///
/// A deferred build's entry (``Status``):
///
/// | status      | entered by                                | left by                                   |
/// | ----------- | ----------------------------------------- | ----------------------------------------- |
/// | `blocked`   | scheduled; `start` while paused           | its gates reach zero, released → `ready`  |
/// | `ready`     | nothing holds it back (in a ready queue)  | taken, not paused → `submitted`           |
/// | `submitted` | handed to the scheduler                   | `start` → `running` (`blocked` if paused) |
/// | `running`   | `start`                                   | `finish` → `built` or `failed`            |
/// | `built`, `failed` | `finish`                            | final                                     |
/// | `skipped`   | a scheduled dependency failed, before it ran | final (left to be built on demand)     |
/// | `cancelled` | `shutDown`, before it ran                 | final                                     |
///
/// `blocked`, `ready` and `submitted` go to `skipped` or `cancelled`; `running` never does: it
/// ends with `finish`. The app is fully ready once every entry scheduled before then has
/// ended, whatever its end. Gates come only from entries of the same stage or an earlier one,
/// so they form no loop but a dependency cycle; the first frame's entries on one are ungated
/// from each other, and their builds fail with the cycle.
struct LaunchSchedule {
  enum Phase: UInt8, Equatable {
    case notLaunched
    case launching
    /// Critical services built; waiting for the first frame.
    case launched
    /// First frame reported: deferred builds are scheduled.
    case deferring
    /// Every build scheduled before then has ended. Final but for a shutdown.
    case fullyReady
    /// Final.
    case shutDown
  }

  enum Status: Equatable {
    /// Waiting for scheduled dependencies, or for its idle time.
    case blocked
    /// May be handed to the scheduler.
    case ready
    /// Handed to the scheduler, not started.
    case submitted
    case running
    case built
    case failed
    /// A scheduled dependency failed: left to be built on demand.
    case skipped
    /// Shut down before it started.
    case cancelled
  }

  /// How a build that ran ended.
  enum Outcome: Equatable {
    case built
    case failed
  }

  /// An entry's name: its place in the schedule's one list of entries, the order it was added
  /// in. Entries are values in that list, linked to each other by these numbers: no object
  /// per entry, nothing to retain but its node.
  typealias EntryID = Int

  /// One deferred build, a value in the schedule's list of entries (named by its
  /// ``EntryID``). Its dependents are a range of the schedule's one list of the first frame's
  /// dependents (made once, no list per entry), plus a list of its own for those gated on it
  /// later. Read and written only under the launch lock, as part of the schedule; outside,
  /// a copy (tests) or a ``ScheduledBuild`` names it.
  struct Entry {
    let node: AnyNode
    let priority: Priority
    /// Whether the node's factory is async: such a build holds no thread while it waits, and
    /// does not count against the width.
    let isAsync: Bool
    /// Whether it is built on the main-thread lane (a synchronous main-actor service): one
    /// build at a time, one per turn of the main queue.
    let isMainLane: Bool
    /// Registration order, to keep builds of equal rank in the order the app registered them.
    let order: Int
    /// The rank's minor key, within a stage and quality of service: the registration order;
    /// with a history, the longest remaining path first (`rankByLongestPath`).
    fileprivate(set) var minorRank: UInt64
    /// Stage, quality of service and minor rank in one key, lower first: set once its minor
    /// rank is final, before it is first ready.
    fileprivate(set) var rank: UInt64 = 0
    /// Its place among its ready queue's first-frame entries in rank order (the queue's bit
    /// set), or -1: an entry added after the first frame waits in the queue's heap.
    fileprivate(set) var position = -1
    /// Scheduled dependencies not built yet.
    fileprivate(set) var gates = 0
    /// Its first-frame dependents: `dependentsCount` of the schedule's `dependentList` from
    /// `dependentsStart`.
    fileprivate var dependentsStart = 0
    fileprivate var dependentsCount = 0
    /// Dependents gated on it after the first frame (registered late): most have none.
    fileprivate var laterDependents: [EntryID] = []
    /// The last `gate` call that gated an entry on it: an entry is gated on it once.
    fileprivate var gatedBy = -1
    /// For idle services: released by their delay or by the app saying it is idle.
    fileprivate(set) var released: Bool
    fileprivate(set) var status = Status.blocked
    /// When it became ready to run, for the time it spent queued.
    fileprivate(set) var readyAt: UInt64?
    /// Scratch of the search for cycles: visit order and lowest reachable, or -1.
    fileprivate var visit = -1
    fileprivate var low = 0
    fileprivate var onStack = false

    init(node: AnyNode, priority: Priority, order: Int, released: Bool) {
      self.node = node
      self.priority = priority
      self.isAsync = node.isAsync
      self.isMainLane = node.isMainActor && !node.isAsync
      self.order = order
      self.minorRank = UInt64(order)
      self.released = released
    }

    var isFinished: Bool {
      switch status {
      case .built, .failed, .skipped, .cancelled: true
      default: false
      }
    }

    /// Whether it has not started and may still be skipped or cancelled.
    fileprivate var isPending: Bool {
      switch status {
      case .blocked, .ready, .submitted: true
      default: false
      }
    }
  }

  /// Someone waiting for full readiness.
  enum Waiter: Sendable {
    /// Called once the app is fully ready; released uncalled if the container shuts down.
    case callback(@Sendable () -> Void)
    /// Resumed once the app is fully ready; resumed throwing if the container shuts down.
    case continuation(CheckedContinuation<Void, any Error>)
  }

  private(set) var phase = Phase.notLaunched
  private(set) var flags: Set<LaunchFlag> = []
  private(set) var paused = false
  private(set) var milestones = Milestones()
  private var idleRequested = false
  /// Every entry, by ``EntryID``: the first frame's first, in the order of the nodes it read,
  /// then those adopted later.
  private var entries: [Entry] = []
  /// The entries' numbers by node.
  private var entryIDs = EntryTable()
  /// Synchronous entries that may run now, best first; async ones, in the order they became
  /// ready. Entries skipped or cancelled meanwhile are dropped when they come up.
  private var readySync = RankedQueue()
  private var readyAsync: [EntryID] = []
  /// Main-lane entries that may run now, best first.
  private var readyMain = RankedQueue()
  /// Synchronous background builds handed to the scheduler or running: bounded by `width`.
  private(set) var inFlight = 0
  /// Whether a main-lane build is handed to the main queue or running: the next one is handed
  /// over only when it ends, so it queues behind whatever the main queue received meanwhile.
  private(set) var mainInFlight = false
  /// Entries not ended yet.
  private(set) var remaining = 0
  private var waiters: [Waiter] = []
  /// The lists `gate` keeps as it goes, kept here empty between calls so that their memory is
  /// allocated once a launch, not once an entry.
  private var gateSeen: [ObjectIdentifier] = []
  /// Idle entries not released yet, in the order they were added: what `releaseIdle` looks at,
  /// instead of every entry.
  private var unreleased: [EntryID] = []
  private var gateThrough: [AnyNode] = []
  /// Numbers the `gate` calls, for ``Entry/gatedBy``.
  private var gateCalls = 0
  /// The first frame's dependents, entry by entry (``Entry/dependentsStart``): made once, at
  /// the first frame, in the order they were gated.
  private var dependentList: [EntryID] = []
  /// How many synchronous builds may be in flight at once.
  let width: Int
  /// What past launches cost, to run the longest remaining path first; `nil`: registration
  /// order.
  private let history: LaunchHistory?
  /// Once the first frame's entries are ranked by their paths: the cost taken for a service
  /// the history does not know, and the longest path, which scales the ranks.
  private var pathScale: (unknownCost: UInt64, longest: UInt64)?

  init(width: Int, history: LaunchHistory? = nil) {
    self.width = max(1, width)
    self.history = history
  }

  /// Whether every build scheduled before it was has ended.
  var isFullyReady: Bool { phase == .fullyReady }

  /// The number of `node`'s entry, if it is scheduled.
  func entryID(for node: AnyNode) -> EntryID? { entryIDs[node] }

  /// A copy of the entry of `node`, if it is scheduled.
  func entry(for node: AnyNode) -> Entry? { entryIDs[node].map { entries[$0] } }

  /// A copy of the entry numbered `id`.
  func entry(_ id: EntryID) -> Entry { entries[id] }

  /// Whether a registration of `node` may have to be scheduled: it is a singleton whose
  /// priority is deferred, or depends on the launch.
  static func mayBeScheduled(_ node: AnyNode) -> Bool {
    guard node.kind.isCached || node.takesArgument else { return false }
    switch node.priority.kind {
    case .afterFirstFrame, .idle, .when: return true
    case .critical, .onDemand: return false
    }
  }

  // MARK: - The launch

  /// `notLaunched → launching`; refused in every other phase.
  mutating func beginLaunch(flags: Set<LaunchFlag>, now: UInt64) -> DeferredError? {
    guard phase == .notLaunched else {
      let detail =
        phase == .shutDown
        ? "the container was shut down" : "launch() was called already; call it once"
      return DeferredError(.launchOrder, key: Self.launchKey, chain: [], detail: detail)
    }
    phase = .launching
    self.flags = flags
    milestones.launchBegan = now
    return nil
  }

  /// `launching → launched`, or back to `notLaunched` when a critical build failed; a
  /// shutdown meanwhile stays, and is returned to report.
  mutating func endLaunch(succeeded: Bool, now: UInt64) -> DeferredError? {
    switch phase {
    case .launching:
      phase = succeeded ? .launched : .notLaunched
      if succeeded { milestones.criticalReady = now }
      return nil
    case .shutDown:
      return DeferredError(.shutDown, key: Self.launchKey, chain: [])
    default:
      return DeferredError(
        .launchOrder, key: Self.launchKey, chain: [], detail: "no launch is under way")
    }
  }

  /// `launched → deferring`: schedules the deferred services among `nodes` (read only then,
  /// under the launch lock, so that a registration either is among them or finds the phase
  /// moved on), or `fullyReady` at once if there are none. Again afterwards: nothing.
  mutating func firstFrameDrawn(nodes: @autoclosure () -> [AnyNode], now: UInt64) -> Result<
    LaunchWork, DeferredError
  > {
    switch phase {
    case .deferring, .fullyReady:
      return .success(LaunchWork())
    case .launched:
      break
    case .notLaunched, .launching, .shutDown:
      let detail =
        phase == .shutDown
        ? "the container was shut down" : "call launch() before firstFrameDrawn()"
      return .failure(
        DeferredError(
          .launchOrder, key: AnyServiceKey(Container.self, name: "firstFrameDrawn"), chain: [],
          detail: detail))
    }
    phase = .deferring
    milestones.firstFrame = now
    let nodes = nodes()
    var delays: Set<Duration> = []
    var lastDelay: Duration?
    // The first frame's entries are the first: `0 ..< entries.count` once they are added.
    entries.reserveCapacity(nodes.count)
    entryIDs.reserveCapacity(nodes.count)
    for (order, node) in nodes.enumerated() {
      guard let (_, delay) = addEntry(node, order: order) else { continue }
      // Idle services share a few delays: a delay like the last one is not hashed again.
      if let delay, delay != lastDelay {
        delays.insert(delay)
        lastDelay = delay
      }
    }
    // The gates' edges, as the number of the entry gated on, grouped by the entry gated (in
    // order): one list, made into the lists of dependents once.
    var edges: [EntryID] = []
    edges.reserveCapacity(entries.count * 2)
    for id in entries.indices { gate(id, edges: &edges, recording: true) }
    // Every gate on an entry registered earlier: no cycle, and the entries' order is a
    // topological order.
    let forward = linkDependents(edges: edges)
    if !forward { ungateCycles() }
    if history != nil { rankByLongestPath(topological: forward) }
    placeInRankOrder()
    for id in entries.indices { makeReady(id, at: now) }
    var work = LaunchWork(timers: delays.sorted(), reachedFirstFrame: true)
    completeIfDone(&work, at: now)
    work.submit = takeSubmittable()
    return .success(work)
  }

  /// Schedules a deferred service registered after the first frame, as if it had been there.
  /// Once fully ready, the app stays so: the service is built, and nobody waits for it. Before
  /// the first frame, nothing: the first frame's nodes hold it.
  mutating func adopt(node: AnyNode, now: UInt64) -> LaunchWork {
    guard phase == .deferring || phase == .fullyReady,
      let (id, delay) = addEntry(node, order: entries.count)
    else { return LaunchWork() }
    // A new entry has no dependents yet: it can close no loop but through itself, which
    // `gate` leaves out. Its path is its own cost: the first frame's paths are not made again.
    var noEdges: [EntryID] = []
    gate(id, edges: &noEdges, recording: false)
    if let (unknownCost, longest) = pathScale {
      entries[id].minorRank = Self.pathRank(
        path: cost(of: id) ?? unknownCost, longest: longest, order: entries[id].order)
    }
    entries[id].rank = Self.rank(entries[id].priority, minor: entries[id].minorRank)
    makeReady(id, at: now)
    var work = LaunchWork(timers: delay.map { [$0] } ?? [])
    work.submit = takeSubmittable()
    return work
  }

  /// Releases idle entries whose delay is at most `limit` (all of them for `nil`).
  mutating func releaseIdle(upTo limit: Duration?, now: UInt64) -> LaunchWork {
    guard phase == .deferring || phase == .fullyReady else { return LaunchWork() }
    var kept: [EntryID] = []
    for id in unreleased {
      guard case .idle(let delay) = entries[id].priority.kind,
        limit.map({ delay.duration <= $0 }) ?? true
      else {
        kept.append(id)
        continue
      }
      entries[id].released = true
      makeReady(id, at: now)
    }
    unreleased = kept
    return LaunchWork(submit: takeSubmittable())
  }

  /// The app is idle: idle entries, now and later, are released at once.
  mutating func appIsIdle(now: UInt64) -> LaunchWork {
    idleRequested = true
    return releaseIdle(upTo: nil, now: now)
  }

  /// Holds back builds that have not started.
  mutating func pause() {
    paused = true
  }

  /// Lets builds go on after ``pause()``.
  mutating func resume() -> LaunchWork {
    paused = false
    return LaunchWork(submit: takeSubmittable())
  }

  /// Any phase → `shutDown`, for good: entries that have not started are cancelled, waiters
  /// are failed, callbacks released. Again: nothing.
  mutating func shutDown() -> LaunchWork {
    guard phase != .shutDown else { return LaunchWork() }
    var work = LaunchWork()
    work.awaitRunning = phase == .deferring || phase == .fullyReady
    phase = .shutDown
    var cancelled: [ScheduledBuild] = []
    for id in entries.indices where entries[id].isPending {
      if entries[id].status == .submitted { leaveFlight(id) }
      entries[id].status = .cancelled
      cancelled.append(scheduledBuild(id))
    }
    work.cancelled = cancelled
    readySync.removeAll()
    readyMain.removeAll()
    readyAsync = []
    work.shutDown = waiters
    waiters = []
    return work
  }

  /// Waits for full readiness: told at once if the app is fully ready or shut down.
  mutating func addFullyReadyWaiter(_ waiter: Waiter) -> LaunchWork {
    var work = LaunchWork()
    switch phase {
    case .fullyReady: work.ready = [waiter]
    case .shutDown: work.shutDown = [waiter]
    default: waiters.append(waiter)
    }
    return work
  }

  // MARK: - Builds

  /// `submitted → running`: returns the build to run, or `nil` if it is not to run now
  /// (ended meanwhile, or paused: then back in its ready queue).
  mutating func start(_ id: EntryID, now: UInt64) -> ScheduledRun? {
    guard entries[id].status == .submitted else { return nil }
    if paused {
      entries[id].status = .blocked
      leaveFlight(id)
      makeReady(id, at: now)
      return nil
    }
    entries[id].status = .running
    return ScheduledRun(
      id: id, node: entries[id].node, qos: entries[id].priority.qos,
      isAsync: entries[id].isAsync, isMainLane: entries[id].isMainLane,
      readyAt: entries[id].readyAt, startedAt: now)
  }

  /// The launch's flags for a scheduled build's context, `nil` if it has none (the common
  /// launch: nothing to retain and release). Fixed once the first frame is drawn.
  var runFlags: Set<LaunchFlag>? { flags.isEmpty ? nil : flags }

  /// `running → built` or `failed`. Takes the builds this made ready and, given `qos`,
  /// starts the first synchronous one of that quality of service for the finishing thread to
  /// run next (``LaunchWork/next``); on failure, skips the entries that need it.
  mutating func finish(
    _ id: EntryID, _ outcome: Outcome, carryingOn qos: BuildQoS? = nil, now: UInt64
  ) -> LaunchWork {
    let (next, work) = finishCarrying(id, outcome, carryingOn: qos, now: now)
    var result = work ?? LaunchWork()
    result.next = next
    return result
  }

  /// ``finish(_:_:carryingOn:now:)``, with the build to run next apart from the rest of the
  /// work, and no work (`nil`) when there is nothing else to do: the common end of a build
  /// makes, moves and drops no ``LaunchWork``.
  mutating func finishCarrying(
    _ id: EntryID, _ outcome: Outcome, carryingOn qos: BuildQoS?, now: UInt64
  ) -> (next: ScheduledRun?, work: LaunchWork?) {
    guard entries[id].status == .running else { return (nil, nil) }
    leaveFlight(id)
    remaining -= 1
    switch outcome {
    case .built:
      entries[id].status = .built
      var index = entries[id].dependentsStart
      let end = index + entries[id].dependentsCount
      while index < end {
        let dependent = dependentList[index]
        entries[dependent].gates -= 1
        makeReady(dependent, at: now)
        index += 1
      }
      if !entries[id].laterDependents.isEmpty {
        for dependent in entries[id].laterDependents {
          entries[dependent].gates -= 1
          makeReady(dependent, at: now)
        }
      }
    case .failed:
      entries[id].status = .failed
      var queue = dependents(of: id)
      while let dependent = queue.popLast() {
        guard entries[dependent].isPending else { continue }
        if entries[dependent].status == .submitted { leaveFlight(dependent) }
        entries[dependent].status = .skipped
        remaining -= 1
        queue += dependents(of: dependent)
      }
    }
    var carried: EntryID?
    let submit = takeSubmittable(carryingOn: qos, carried: &carried)
    let next = carried.flatMap { start($0, now: now) }
    let completes = phase == .deferring && remaining == 0
    guard !submit.isEmpty || completes else { return (next, nil) }
    var work = LaunchWork(submit: submit, next: nil)
    if completes { completeIfDone(&work, at: now) }
    return (next, work)
  }

  // MARK: - Inside

  private static let launchKey = AnyServiceKey(Container.self, name: "launch")

  /// `deferring → fullyReady` once every entry has ended: the waiters are told.
  private mutating func completeIfDone(_ work: inout LaunchWork, at now: UInt64) {
    guard phase == .deferring, remaining == 0 else { return }
    phase = .fullyReady
    milestones.fullyReady = now
    work.reachedFullyReady = true
    work.ready = waiters
    waiters = []
  }

  /// What the container needs to know of entry `id` to hand it to the scheduler or record it.
  private func scheduledBuild(_ id: EntryID) -> ScheduledBuild {
    ScheduledBuild(
      id: id, node: entries[id].node, priority: entries[id].priority,
      isMainLane: entries[id].isMainLane)
  }

  /// Adds `node` if it is a deferred singleton not built nor scheduled yet; returns its
  /// entry's number and its idle delay.
  private mutating func addEntry(_ node: AnyNode, order: Int) -> (EntryID, Duration?)? {
    // An argument factory's build builds its dependencies only (its walk makes no value).
    guard node.kind.isCached || node.takesArgument, !node.isBuilt else { return nil }
    let priority = node.priority.resolved(in: flags)
    var delay: Duration?
    switch priority.kind {
    case .afterFirstFrame: break
    case .idle(let idle): delay = idle.duration
    default: return nil
    }
    guard entryIDs[node] == nil else { return nil }
    let id = entries.count
    let released = delay == nil || idleRequested
    entries.append(Entry(node: node, priority: priority, order: order, released: released))
    entryIDs.insert(node, id: id)
    if !released { unreleased.append(id) }
    remaining += 1
    return (id, delay)
  }

  /// Gates an entry on the nearest scheduled services it needs, found through unscheduled ones
  /// (iteratively), that run in the same stage or before it, and that are not itself.
  ///
  /// At the first frame (`recording`), each gate is recorded as the number of the entry gated
  /// on, and ``linkDependents(edges:)`` makes the lists of dependents once; later, `id` joins
  /// the ``Entry/laterDependents`` of each.
  ///
  /// One loop over the dependencies' keys, with no closure (a closure's captured counters were
  /// checked for exclusive access at each use); the unscheduled nodes gone through are kept in
  /// a short list, and in a set only past a few.
  private mutating func gate(_ id: EntryID, edges: inout [EntryID], recording: Bool) {
    gateCalls += 1
    let call = gateCalls
    var gates = 0
    var seen: [ObjectIdentifier] = []
    var through: [AnyNode] = []
    swap(&seen, &gateSeen)
    swap(&through, &gateThrough)
    defer {
      if !seen.isEmpty { seen.removeAll(keepingCapacity: true) }
      gateSeen = seen
      gateThrough = through
    }
    var seenSet: Set<ObjectIdentifier> = []
    var node = entries[id].node
    let stage = entries[id].priority.stage
    while true {
      let owner = node.owner
      // By index, an unnamed key by its type alone: the list's iterator is a call per key,
      // and a key made is a name retained and released.
      let dependencies = node.knownDependencies
      for index in dependencies.indices {
        let found =
          if let type = dependencies.unnamedType(at: index) {
            owner.lookup(ObjectIdentifier(type), nil, 0)
          } else {
            owner.lookup(dependencies[index])
          }
        guard let found else { continue }
        if found.isReady { continue }
        if let scheduled = entryIDs[found] {
          guard scheduled != id, entries[scheduled].priority.stage <= stage,
            !entries[scheduled].isFinished, entries[scheduled].gatedBy != call
          else { continue }
          entries[scheduled].gatedBy = call
          if recording {
            edges.append(scheduled)
          } else {
            entries[scheduled].laterDependents.append(id)
          }
          gates += 1
          continue
        }
        let dependency = found
        let dependencyID = ObjectIdentifier(dependency)
        if seen.count < 16 {
          guard !seen.contains(dependencyID) else { continue }
          seen.append(dependencyID)
        } else {
          if seenSet.isEmpty { seenSet = Set(seen) }
          guard seenSet.insert(dependencyID).inserted else { continue }
        }
        through.append(dependency)
      }
      guard let next = through.popLast() else { break }
      node = next
    }
    entries[id].gates += gates
  }

  /// Makes the first frame's lists of dependents from the gates' `edges` (the number of each
  /// entry gated on, grouped by the entry gated, in order): one list for all, each entry's
  /// dependents a range of it, in the order they were gated (a counting sort). Returns whether
  /// every entry is gated only on entries before it: then no gate closes a cycle, and the
  /// entries are in topological order.
  private mutating func linkDependents(edges: [EntryID]) -> Bool {
    // Made once: the first frame comes once, and later gates go to `laterDependents`.
    guard !edges.isEmpty, dependentList.isEmpty else { return edges.isEmpty }
    var forward = true
    for gatedOn in edges { entries[gatedOn].dependentsCount += 1 }
    var start = 0
    for id in entries.indices {
      entries[id].dependentsStart = start
      start += entries[id].dependentsCount
      entries[id].dependentsCount = 0
    }
    var list = [EntryID](repeating: 0, count: edges.count)
    var edge = 0
    for id in entries.indices {
      // Before any is ungated, an entry's gates are its edges, in order.
      for _ in 0..<entries[id].gates {
        let gatedOn = edges[edge]
        if gatedOn >= id { forward = false }
        list[entries[gatedOn].dependentsStart + entries[gatedOn].dependentsCount] = id
        entries[gatedOn].dependentsCount += 1
        edge += 1
      }
    }
    dependentList = list
    return forward
  }

  /// How many entries are gated on `id`.
  private func dependentCount(of id: EntryID) -> Int {
    entries[id].dependentsCount + entries[id].laterDependents.count
  }

  /// The dependent of `id` at `index`, in `0 ..< dependentCount(of: id)`.
  private func dependent(of id: EntryID, at index: Int) -> EntryID {
    index < entries[id].dependentsCount
      ? dependentList[entries[id].dependentsStart + index]
      : entries[id].laterDependents[index - entries[id].dependentsCount]
  }

  /// Every entry gated on `id`, in a list of its own (for the rare paths).
  private func dependents(of id: EntryID) -> [EntryID] {
    (0..<dependentCount(of: id)).map { dependent(of: id, at: $0) }
  }

  /// Removes the gates between the first frame's entries on one cycle (a strongly connected
  /// component of the gates, found iteratively with Tarjan's algorithm, when a first count
  /// shows some entry would never be ready): none would ever be ready. Each then runs, and its
  /// build fails with the cycle; entries gated on them wait for that.
  private mutating func ungateCycles() {
    // First, cheaply, whether any entry could never be ready (Kahn's count of open gates, in
    // `low`): with no cycle, the common case, nothing more is done.
    var unblocked: [EntryID] = []
    unblocked.reserveCapacity(entries.count)
    for id in entries.indices {
      entries[id].low = entries[id].gates
      if entries[id].gates == 0 { unblocked.append(id) }
    }
    var reached = 0
    while let id = unblocked.popLast() {
      reached += 1
      for index in 0..<dependentCount(of: id) {
        let dependent = self.dependent(of: id, at: index)
        entries[dependent].low -= 1
        if entries[dependent].low == 0 { unblocked.append(dependent) }
      }
    }
    guard reached < entries.count else { return }
    var counter = 0
    var stack: [EntryID] = []
    var path: [(id: EntryID, next: Int)] = []
    var members: [EntryID] = []
    func open(_ id: EntryID, _ entries: inout [Entry]) {
      entries[id].visit = counter
      entries[id].low = counter
      counter += 1
      entries[id].onStack = true
      stack.append(id)
      path.append((id, 0))
    }
    for root in entries.indices where entries[root].visit < 0 && dependentCount(of: root) > 0 {
      open(root, &entries)
      while let (id, next) = path.last {
        if next < dependentCount(of: id) {
          path[path.count - 1].next += 1
          let dependent = self.dependent(of: id, at: next)
          if entries[dependent].visit < 0 {
            open(dependent, &entries)
          } else if entries[dependent].onStack {
            entries[id].low = min(entries[id].low, entries[dependent].visit)
          }
          continue
        }
        path.removeLast()
        if let parent = path.last?.id {
          entries[parent].low = min(entries[parent].low, entries[id].low)
        }
        guard entries[id].low == entries[id].visit else { continue }
        // Most components are one entry (no cycle): they cost no allocation.
        members.removeAll(keepingCapacity: true)
        while let member = stack.popLast() {
          entries[member].onStack = false
          members.append(member)
          if member == id { break }
        }
        guard members.count > 1 else { continue }
        let component = Set(members)
        for member in members {
          var kept = 0
          let start = entries[member].dependentsStart
          for index in start..<start + entries[member].dependentsCount {
            let dependent = dependentList[index]
            if component.contains(dependent) {
              entries[dependent].gates -= 1
            } else {
              dependentList[start + kept] = dependent
              kept += 1
            }
          }
          entries[member].dependentsCount = kept
          var later = entries[member].laterDependents
          later.removeAll { dependent in
            guard component.contains(dependent) else { return false }
            entries[dependent].gates -= 1
            return true
          }
          entries[member].laterDependents = later
        }
      }
    }
  }

  /// Marks entry `id` ready to run, if nothing holds it back any more.
  private mutating func makeReady(_ id: EntryID, at now: UInt64) {
    guard entries[id].status == .blocked, entries[id].gates == 0, entries[id].released else {
      return
    }
    entries[id].status = .ready
    if entries[id].readyAt == nil { entries[id].readyAt = now }
    if entries[id].isAsync {
      readyAsync.append(id)
    } else if entries[id].isMainLane {
      readyMain.push(id, rank: entries[id].rank, position: entries[id].position)
    } else {
      readySync.push(id, rank: entries[id].rank, position: entries[id].position)
    }
  }

  /// An entry handed over leaves the builds in flight: ended, skipped, cancelled, or held by a
  /// pause.
  private mutating func leaveFlight(_ id: EntryID) {
    if entries[id].isMainLane {
      mainInFlight = false
    } else if !entries[id].isAsync {
      inFlight -= 1
    }
  }

  /// Stage, then quality of service, then the minor rank (registration order, or with a
  /// history the longest remaining path first): lower runs first.
  private static func rank(_ priority: Priority, minor: UInt64) -> UInt64 {
    let qos = UInt64(BuildQoS.allCases.firstIndex(of: priority.qos) ?? 0)
    return UInt64(priority.stage.rawValue) << 56 | qos << 48 | minor
  }

  /// Sets the first frame's entries' ranks, and numbers the synchronous ones of each ready
  /// queue in rank order: the queue keeps them as a bit set by that number, and pushes and
  /// pops each in a few instructions instead of a heap's O(log n) steps.
  ///
  /// Numbered by class (stage and quality of service, the rank's major keys) in the order they
  /// come, which is rank order within a class when the minor rank is the registration order
  /// (no history): a count per class, no sort. A queue whose entries come out of order within
  /// a class (ranked by paths) is sorted by rank instead.
  private mutating func placeInRankOrder() {
    // Per class of each queue (sync 0 ..< 16, main 16 ..< 32): its count, then its next number,
    // and the last rank seen in it.
    var next = [Int](repeating: 0, count: 32)
    var last = [UInt64](repeating: 0, count: 32)
    var inOrder = (sync: true, main: true)
    for id in entries.indices {
      let rank = Self.rank(entries[id].priority, minor: entries[id].minorRank)
      entries[id].rank = rank
      guard !entries[id].isAsync else { continue }
      let isMainLane = entries[id].isMainLane
      let slot = Self.rankClass(rank) | (isMainLane ? 16 : 0)
      if next[slot] > 0 && last[slot] > rank {
        if isMainLane { inOrder.main = false } else { inOrder.sync = false }
      }
      last[slot] = rank
      next[slot] += 1
    }
    var total = (sync: 0, main: 0)
    for slot in 0..<32 {
      let count = next[slot]
      if slot < 16 {
        next[slot] = total.sync
        total.sync += count
      } else {
        next[slot] = total.main
        total.main += count
      }
    }
    for id in entries.indices where !entries[id].isAsync {
      let slot = Self.rankClass(entries[id].rank) | (entries[id].isMainLane ? 16 : 0)
      entries[id].position = next[slot]
      next[slot] += 1
    }
    for lane in [false, true] where !(lane ? inOrder.main : inOrder.sync) {
      let sorted = entries.indices.filter {
        !entries[$0].isAsync && entries[$0].isMainLane == lane
      }.sorted { entries[$0].rank < entries[$1].rank }
      for (position, id) in sorted.enumerated() { entries[id].position = position }
    }
    readySync.reservePositions(total.sync)
    readyMain.reservePositions(total.main)
  }

  /// A rank's class, its stage and quality of service, in 0 ..< 16.
  private static func rankClass(_ rank: UInt64) -> Int {
    (Int(truncatingIfNeeded: rank >> 56) &* 4 &+ Int(truncatingIfNeeded: rank >> 48 & 0xFF)) & 15
  }

  /// Ranks the first frame's entries by the longest path of remembered costs from each
  /// through its dependents (critical-path list scheduling): an entry's path is its typical
  /// self time plus the longest of its dependents' paths, over the scheduled graph (declared
  /// dependencies, or those observed in past builds), in O(V + E) once, here, not at each pop.
  ///
  /// A service the history does not know (new, or never built) costs the median of the known
  /// ones: a guess that neither sends it last (zero would, however long the chain it heads) nor
  /// first. With no launch remembered, or no service known, the ranks stay registration order.
  /// Stage and quality of service stay the major keys: a path orders builds within a class.
  ///
  /// `topological`: the entries are in topological order already (each after those it is
  /// gated on), and Kahn's sort is not needed.
  private mutating func rankByLongestPath(topological: Bool) {
    // The path in 24 bits and the order in 24: beyond 16 million entries, registration order.
    guard let history, history.launchCount > 0, entries.count <= Self.pathRankMax else { return }
    // Each entry's cost in `minorRank` for now (unknown: `.max`), its gates left in `low`.
    var known: [UInt64] = []
    known.reserveCapacity(entries.count)
    var sorted: [EntryID] = []
    sorted.reserveCapacity(entries.count)
    for id in entries.indices {
      let cost = cost(of: id)
      if let cost { known.append(cost) }
      entries[id].minorRank = cost ?? .max
      entries[id].low = entries[id].gates
      if entries[id].gates == 0 { sorted.append(id) }
    }
    guard !known.isEmpty else {
      for id in entries.indices { entries[id].minorRank = UInt64(entries[id].order) }
      return
    }
    known.sort()
    let unknownCost = known[(known.count - 1) / 2]
    // Kahn's order: gates come only from these entries, and no cycle is left among them.
    if topological { sorted = Array(entries.indices) }
    var next = topological ? sorted.count : 0
    while next < sorted.count {
      for index in 0..<dependentCount(of: sorted[next]) {
        let dependent = self.dependent(of: sorted[next], at: index)
        entries[dependent].low -= 1
        if entries[dependent].low == 0 { sorted.append(dependent) }
      }
      next += 1
    }
    var longest: UInt64 = 0
    for id in sorted.reversed() {
      var tail: UInt64 = 0
      for index in 0..<dependentCount(of: id) {
        tail = max(tail, entries[dependent(of: id, at: index)].minorRank)
      }
      let cost = entries[id].minorRank == .max ? unknownCost : entries[id].minorRank
      let (path, overflow) = cost.addingReportingOverflow(tail)
      entries[id].minorRank = overflow ? .max - 1 : path
      longest = max(longest, entries[id].minorRank)
    }
    for id in entries.indices {
      entries[id].minorRank = Self.pathRank(
        path: entries[id].minorRank, longest: longest, order: entries[id].order)
    }
    pathScale = (unknownCost, longest)
  }

  /// The typical self time of entry `id`'s service, in nanoseconds, if the history knows it.
  private func cost(of id: EntryID) -> UInt64? {
    guard let time = history?.typicalSelfTime(of: entries[id].node.key.description) else {
      return nil
    }
    let (seconds, attoseconds) = time.components
    guard seconds >= 0 else { return 0 }
    let (nanoseconds, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max - 1 : nanoseconds &+ UInt64(attoseconds / 1_000_000_000)
  }

  /// The largest path rank and registration order a minor rank holds (24 bits each).
  private static let pathRankMax = (1 << 24) - 1

  /// A minor rank for a path: the longest first, in 24 bits scaled to `longest`, then the
  /// registration order.
  private static func pathRank(path: UInt64, longest: UInt64, order: Int) -> UInt64 {
    let scale = Double(pathRankMax)
    let scaled = longest == 0 ? 0 : min(scale, Double(path) / Double(longest) * scale)
    return (UInt64(scale) - UInt64(scaled)) << 24 | UInt64(min(order, pathRankMax))
  }

  /// Takes the entries to hand to the scheduler now: every ready async build, synchronous ones
  /// up to `width` in flight, and one main-lane build if none is in flight.
  ///
  /// Given `qos`, the first synchronous background build of that quality of service is not
  /// among them but in `carried`, for the finishing thread to run next: the common end of a
  /// build takes one entry and allocates no list.
  private mutating func takeSubmittable(
    carryingOn qos: BuildQoS? = nil, carried: inout EntryID?
  ) -> [ScheduledBuild] {
    guard !paused, phase == .deferring || phase == .fullyReady else { return [] }
    var taken: [ScheduledBuild] = []
    if !readyAsync.isEmpty {
      for id in readyAsync where entries[id].status == .ready {
        entries[id].status = .submitted
        taken.append(scheduledBuild(id))
      }
      readyAsync = []
    }
    while inFlight < width, let id = readySync.pop() {
      guard entries[id].status == .ready else { continue }
      entries[id].status = .submitted
      inFlight += 1
      if carried == nil, let qos, entries[id].priority.qos == qos {
        carried = id
      } else {
        taken.append(scheduledBuild(id))
      }
    }
    while !mainInFlight, let id = readyMain.pop() {
      guard entries[id].status == .ready else { continue }
      entries[id].status = .submitted
      mainInFlight = true
      taken.append(scheduledBuild(id))
    }
    return taken
  }

  /// ``takeSubmittable(carryingOn:carried:)`` with nothing carried.
  private mutating func takeSubmittable() -> [ScheduledBuild] {
    var carried: EntryID?
    return takeSubmittable(carried: &carried)
  }
}

/// What a transition of the ``LaunchSchedule`` asks the container to do, outside the lock.
///
/// The common transition, the end of a build, asks only for builds to hand over and the next
/// one to run; timers, waiters and cancelled entries live in a box made only when one of them
/// is asked for, so that making, moving and dropping the common work touches two references
/// instead of six.
struct LaunchWork {
  /// Builds to hand to the scheduler, a job each.
  var submit: [ScheduledBuild] = []
  /// The build the finishing thread runs next, started already.
  var next: ScheduledRun?
  /// For a shutdown: whether builds may be running, to wait for.
  var awaitRunning = false
  /// Milestones this transition reached, to mark for Instruments.
  var reachedFirstFrame = false
  var reachedFullyReady = false
  /// The rarer parts, if any is asked for.
  private var rare: Rare?

  /// No work.
  init() {}

  /// Work that hands over `submit` and has the finishing thread run `next`.
  init(submit: [ScheduledBuild], next: ScheduledRun?) {
    self.submit = submit
    self.next = next
  }

  /// Work that hands over `submit` and arms `timers`.
  init(
    submit: [ScheduledBuild] = [], timers: [Duration] = [], reachedFirstFrame: Bool = false
  ) {
    self.submit = submit
    self.reachedFirstFrame = reachedFirstFrame
    if !timers.isEmpty { self.timers = timers }
  }

  /// Whether it asks for any timer, waiter or cancellation.
  var hasRareParts: Bool { rare != nil }

  /// Idle delays to arm a timer for.
  var timers: [Duration] {
    get { rare?.timers ?? [] }
    set {
      guard rare != nil || !newValue.isEmpty else { return }
      rareForWriting().timers = newValue
    }
  }
  /// To tell that the app is fully ready.
  var ready: [LaunchSchedule.Waiter] {
    get { rare?.ready ?? [] }
    set {
      guard rare != nil || !newValue.isEmpty else { return }
      rareForWriting().ready = newValue
    }
  }
  /// To tell that the container shut down: continuations throw, callbacks are released
  /// uncalled.
  var shutDown: [LaunchSchedule.Waiter] {
    get { rare?.shutDown ?? [] }
    set {
      guard rare != nil || !newValue.isEmpty else { return }
      rareForWriting().shutDown = newValue
    }
  }
  /// Entries a shutdown cancelled, to record.
  var cancelled: [ScheduledBuild] {
    get { rare?.cancelled ?? [] }
    set {
      guard rare != nil || !newValue.isEmpty else { return }
      rareForWriting().cancelled = newValue
    }
  }

  /// The box, made or copied so that this work alone holds it.
  private mutating func rareForWriting() -> Rare {
    if !isKnownUniquelyReferenced(&rare) { rare = rare?.copy() ?? Rare() }
    return rare.unsafelyUnwrapped
  }

  /// Timers, waiters and cancelled entries.
  private final class Rare {
    var timers: [Duration] = []
    var ready: [LaunchSchedule.Waiter] = []
    var shutDown: [LaunchSchedule.Waiter] = []
    var cancelled: [ScheduledBuild] = []

    func copy() -> Rare {
      let copy = Rare()
      (copy.timers, copy.ready, copy.shutDown, copy.cancelled) = (
        timers, ready, shutDown, cancelled
      )
      return copy
    }
  }
}

/// A build the schedule hands out, to give to the scheduler or to record as cancelled: its
/// entry's number, by which the job names it to the schedule, and what the container needs to
/// know of it outside the launch lock.
struct ScheduledBuild {
  let id: LaunchSchedule.EntryID
  let node: AnyNode
  let priority: Priority
  /// Whether it is built on the main-thread lane.
  let isMainLane: Bool
}

/// A scheduled build about to run: its entry's number and service, and what its build context
/// records.
///
/// A plain value, copied with nothing to retain: its node is unretained, kept alive by the
/// schedule's entry (entries are never removed) in the container that runs the build
/// (Docs/Design.md, "Memory safety"), and the launch's flags are read once a job
/// (``LaunchSchedule/runFlags``), not carried by each build.
struct ScheduledRun: Sendable {
  let id: LaunchSchedule.EntryID
  unowned(unsafe) let node: AnyNode
  let qos: BuildQoS
  /// Whether its factory is async (run in a task, holding no thread).
  let isAsync: Bool
  /// Whether it is built on the main-thread lane.
  let isMainLane: Bool
  let readyAt: UInt64?
  /// When the schedule started it.
  let startedAt: UInt64

  /// Sets `context` up for this build, with the launch's `flags` (`nil` if it has none).
  func prepare(_ context: BuildContext, flags: Set<LaunchFlag>?) {
    context.trigger = .scheduled
    if let flags {
      context.flags = flags
    } else if !context.flags.isEmpty {
      context.flags = []
    }
    context.scheduled = node
    context.qos = qos
    context.readyAt = readyAt
  }
}

/// When each step of the launch happened, in nanoseconds on the container's clock.
struct Milestones {
  var launchBegan: UInt64?
  var criticalReady: UInt64?
  var firstFrame: UInt64?
  var fullyReady: UInt64?
}

/// Ready builds, by entry number, best (lowest rank) first.
///
/// The first frame numbers its entries in rank order (``LaunchSchedule/Entry/position``), and
/// the queue keeps them as a bit set by that number, two levels deep: a push sets two bits, a
/// pop finds the lowest set bit of a summary word and of a word, whatever the number of
/// entries, where a heap moves an entry through O(log n) levels. An entry with no number (one
/// added after the first frame) waits in a heap beside it, and a pop takes the better of the
/// two. Ranks are distinct (each ends with the registration order), so the order is the
/// heap's.
struct RankedQueue {
  /// The queued entries by position, with their ranks.
  private var slots: [(id: LaunchSchedule.EntryID, rank: UInt64)] = []
  /// Bit `p` set: position `p` is queued.
  private var words: [UInt64] = []
  /// Bit `w` set: word `w` has a bit set.
  private var summary: [UInt64] = []
  /// No summary word before this one has a bit set.
  private var lowest = 0
  /// Entries with no position.
  private var spill = RankedHeap()

  /// Makes room for the positions `0 ..< count`; the queue must be empty.
  mutating func reservePositions(_ count: Int) {
    guard count > 0 else { return }
    slots = Array(repeating: (-1, 0), count: count)
    words = Array(repeating: 0, count: (count + 63) / 64)
    summary = Array(repeating: 0, count: (words.count + 63) / 64)
    lowest = 0
  }

  /// Queues entry `id` of `rank` at `position` (or in the heap, if it has none: -1).
  mutating func push(_ id: LaunchSchedule.EntryID, rank: UInt64, position: Int) {
    guard position >= 0, position < slots.count else {
      spill.push(id, rank: rank)
      return
    }
    slots[position] = (id, rank)
    let word = position >> 6
    words[word] |= 1 << UInt64(position & 63)
    summary[word >> 6] |= 1 << UInt64(word & 63)
    lowest = min(lowest, word >> 6)
  }

  /// Takes the entry of the lowest rank.
  mutating func pop() -> LaunchSchedule.EntryID? {
    var position = -1
    while lowest < summary.count {
      let bits = summary[lowest]
      if bits != 0 {
        let word = lowest << 6 | bits.trailingZeroBitCount
        position = word << 6 | words[word].trailingZeroBitCount
        break
      }
      lowest += 1
    }
    if let spilled = spill.topRank, position < 0 || spilled < slots[position].rank {
      return spill.pop()
    }
    guard position >= 0 else { return nil }
    let word = position >> 6
    // The lowest set bit of each is this position's and its word's.
    words[word] &= words[word] &- 1
    if words[word] == 0 { summary[lowest] &= summary[lowest] &- 1 }
    return slots[position].id
  }

  mutating func removeAll() { self = RankedQueue() }
}

/// A binary min-heap of entry numbers by rank, in O(log n): the ready queue's entries that
/// have no position, and the reference its order is tested against.
struct RankedHeap {
  private var items: [(rank: UInt64, id: LaunchSchedule.EntryID)] = []

  var isEmpty: Bool { items.isEmpty }

  /// The lowest rank queued.
  var topRank: UInt64? { items.first?.rank }

  mutating func push(_ id: LaunchSchedule.EntryID, rank: UInt64) {
    items.append((rank, id))
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child].rank < items[parent].rank else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() -> LaunchSchedule.EntryID? {
    guard !items.isEmpty else { return nil }
    items.swapAt(0, items.count - 1)
    let best = items.removeLast().id
    var parent = 0
    while true {
      let left = parent * 2 + 1
      let right = left + 1
      var smallest = parent
      if left < items.count && items[left].rank < items[smallest].rank { smallest = left }
      if right < items.count && items[right].rank < items[smallest].rank { smallest = right }
      guard smallest != parent else { return best }
      items.swapAt(parent, smallest)
      parent = smallest
    }
  }

  mutating func removeAll() { items = [] }
}

/// The launch's entry numbers by node: an open-addressing table hashed by the node's address
/// with a multiply-shift. Making the schedule looks an entry up for every edge of the graph,
/// and a `Dictionary` would hash each address with SipHash. It keeps the node's address, not
/// the node: the schedule's entries hold the nodes.
struct EntryTable {
  /// A node's address (0: an empty slot) and its entry's number.
  private var slots: [(node: UInt, id: LaunchSchedule.EntryID)] = Array(
    repeating: (0, -1), count: 16)
  private(set) var count = 0

  /// The number of `node`'s entry, if it has one.
  subscript(node: AnyNode) -> LaunchSchedule.EntryID? {
    let address = UInt(bitPattern: ObjectIdentifier(node))
    var index = Self.index(of: address, in: slots.count)
    while true {
      let slot = slots[index]
      if slot.node == address { return slot.id }
      if slot.node == 0 { return nil }
      index = (index + 1) & (slots.count - 1)
    }
  }

  /// Adds `node`'s entry number; it must have none yet, and the caller keeps the node alive
  /// as long as the table.
  mutating func insert(_ node: AnyNode, id: LaunchSchedule.EntryID) {
    if (count + 1) * 2 > slots.count { reserveCapacity(count + 1) }
    Self.place((UInt(bitPattern: ObjectIdentifier(node)), id), in: &slots)
    count += 1
  }

  /// Makes room for `capacity` entries in all, at most half the slots full.
  mutating func reserveCapacity(_ capacity: Int) {
    guard capacity * 2 > slots.count else { return }
    var size = slots.count
    while capacity * 2 > size { size *= 2 }
    var grown = [(node: UInt, id: LaunchSchedule.EntryID)](repeating: (0, -1), count: size)
    for slot in slots where slot.node != 0 { Self.place(slot, in: &grown) }
    slots = grown
  }

  private static func place(
    _ slot: (node: UInt, id: LaunchSchedule.EntryID),
    in slots: inout [(node: UInt, id: LaunchSchedule.EntryID)]
  ) {
    var index = index(of: slot.node, in: slots.count)
    while slots[index].node != 0 { index = (index + 1) & (slots.count - 1) }
    slots[index] = slot
  }

  private static func index(of address: UInt, in size: Int) -> Int {
    multiplyShift(address, shift: UInt.bitWidth - size.trailingZeroBitCount)
  }
}
