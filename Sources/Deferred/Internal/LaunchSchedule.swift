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

  /// One deferred build: a reference, so that the schedule links entries to each other, not to
  /// dictionary keys. Its dependents are a range of the schedule's one list of the first
  /// frame's dependents (made once, no list per entry), plus a list of its own for those
  /// gated on it later. Read and written only under the launch lock; a job holds one to name
  /// its build.
  ///
  /// Safety: its mutable fields are touched only under the launch lock, which is also why they
  /// skip the runtime's exclusivity checks (a call into the runtime at every access: the
  /// schedule reads them for every edge of the graph) (Docs/Design.md, "Memory safety").
  final class Entry: @unchecked Sendable {
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
    @exclusivity(unchecked) fileprivate(set) var minorRank: UInt64
    /// Stage, quality of service and minor rank in one key, lower first: set once its minor
    /// rank is final, before it is first ready.
    @exclusivity(unchecked) var rank: UInt64 = 0
    /// Its place among its ready queue's first-frame entries in rank order (the queue's bit
    /// set), or -1: an entry added after the first frame waits in the queue's heap. Both are
    /// set by the schedule only (tests of the queues set them too).
    @exclusivity(unchecked) var position = -1
    /// Scheduled dependencies not built yet.
    @exclusivity(unchecked) fileprivate(set) var gates = 0
    /// Its first-frame dependents: `dependentsCount` of the schedule's `dependentList` from
    /// `dependentsStart`.
    @exclusivity(unchecked) fileprivate var dependentsStart = 0
    @exclusivity(unchecked) fileprivate var dependentsCount = 0
    /// Dependents gated on it after the first frame (registered late): most have none.
    @exclusivity(unchecked) fileprivate var laterDependents: [Entry] = []
    /// Its place among the first frame's entries while the schedule is made, or -1.
    @exclusivity(unchecked) fileprivate var index = -1
    /// The last `gate` call that gated an entry on it: an entry is gated on it once.
    @exclusivity(unchecked) fileprivate var gatedBy = -1
    /// For idle services: released by their delay or by the app saying it is idle.
    @exclusivity(unchecked) fileprivate(set) var released: Bool
    @exclusivity(unchecked) fileprivate(set) var status = Status.blocked
    /// When it became ready to run, for the time it spent queued.
    @exclusivity(unchecked) fileprivate(set) var readyAt: UInt64?
    /// Scratch of the search for cycles: visit order and lowest reachable, or -1.
    @exclusivity(unchecked) fileprivate var visit = -1
    @exclusivity(unchecked) fileprivate var low = 0
    @exclusivity(unchecked) fileprivate var onStack = false

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
  private var entries = EntryTable()
  /// Synchronous entries that may run now, best first; async ones, in the order they became
  /// ready. Entries skipped or cancelled meanwhile are dropped when they come up.
  private var readySync = RankedQueue()
  private var readyAsync: [Entry] = []
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
  private var unreleased: [Entry] = []
  private var gateThrough: [AnyNode] = []
  /// Numbers the `gate` calls, for ``Entry/gatedBy``.
  private var gateCalls = 0
  /// The first frame's dependents, entry by entry (``Entry/dependentsStart``): made once, at
  /// the first frame, in the order they were gated.
  private var dependentList: [Entry] = []
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

  /// The entry of `node`, if it is scheduled.
  func entry(for node: AnyNode) -> Entry? { entries[node] }

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
    var added: [Entry] = []
    added.reserveCapacity(nodes.count)
    entries.reserveCapacity(entries.count + nodes.count)
    for (order, node) in nodes.enumerated() {
      guard let (entry, delay) = addEntry(node, order: order) else { continue }
      added.append(entry)
      // Idle services share a few delays: a delay like the last one is not hashed again.
      if let delay, delay != lastDelay {
        delays.insert(delay)
        lastDelay = delay
      }
    }
    // The gates' edges, as the index of the entry gated on, grouped by the entry gated (in
    // `added` order): one list, made into the lists of dependents once.
    var edges: [Int] = []
    edges.reserveCapacity(added.count * 2)
    for (index, entry) in added.enumerated() { entry.index = index }
    for entry in added { gate(entry, edges: &edges, recording: true) }
    // Every gate on an entry registered earlier: no cycle, and `added` is a topological order.
    let forward = linkDependents(added, edges: edges)
    if !forward { ungateCycles(among: added) }
    if history != nil { rankByLongestPath(added, topological: forward) }
    placeInRankOrder(added)
    for entry in added { makeReady(entry, at: now) }
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
      let (entry, delay) = addEntry(node, order: entries.count)
    else { return LaunchWork() }
    // A new entry has no dependents yet: it can close no loop but through itself, which
    // `gate` leaves out. Its path is its own cost: the first frame's paths are not made again.
    var noEdges: [Int] = []
    gate(entry, edges: &noEdges, recording: false)
    if let (unknownCost, longest) = pathScale {
      entry.minorRank = Self.pathRank(
        path: cost(of: entry) ?? unknownCost, longest: longest, order: entry.order)
    }
    entry.rank = Self.rank(entry)
    makeReady(entry, at: now)
    var work = LaunchWork(timers: delay.map { [$0] } ?? [])
    work.submit = takeSubmittable()
    return work
  }

  /// Releases idle entries whose delay is at most `limit` (all of them for `nil`).
  mutating func releaseIdle(upTo limit: Duration?, now: UInt64) -> LaunchWork {
    guard phase == .deferring || phase == .fullyReady else { return LaunchWork() }
    var kept: [Entry] = []
    for entry in unreleased {
      guard case .idle(let delay) = entry.priority.kind, limit.map({ delay.duration <= $0 }) ?? true
      else {
        kept.append(entry)
        continue
      }
      entry.released = true
      makeReady(entry, at: now)
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
    var cancelled: [Entry] = []
    for entry in entries.values where entry.isPending {
      if entry.status == .submitted { leaveFlight(entry) }
      entry.status = .cancelled
      cancelled.append(entry)
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
  mutating func start(_ entry: Entry, now: UInt64) -> ScheduledRun? {
    guard entry.status == .submitted else { return nil }
    if paused {
      entry.status = .blocked
      leaveFlight(entry)
      makeReady(entry, at: now)
      return nil
    }
    entry.status = .running
    // No flags, the common launch: nothing to retain and release for each build.
    return ScheduledRun(
      entry: entry, qos: entry.priority.qos, readyAt: entry.readyAt, startedAt: now,
      flags: flags.isEmpty ? nil : flags)
  }

  /// `running → built` or `failed`. Takes the builds this made ready and, given `qos`,
  /// starts the first synchronous one of that quality of service for the finishing thread to
  /// run next (``LaunchWork/next``); on failure, skips the entries that need it.
  mutating func finish(
    _ entry: Entry, _ outcome: Outcome, carryingOn qos: BuildQoS? = nil, now: UInt64
  ) -> LaunchWork {
    let (next, work) = finishCarrying(entry, outcome, carryingOn: qos, now: now)
    var result = work ?? LaunchWork()
    result.next = next
    return result
  }

  /// ``finish(_:_:carryingOn:now:)``, with the build to run next apart from the rest of the
  /// work, and no work (`nil`) when there is nothing else to do: the common end of a build
  /// makes, moves and drops no ``LaunchWork``.
  mutating func finishCarrying(
    _ entry: Entry, _ outcome: Outcome, carryingOn qos: BuildQoS?, now: UInt64
  ) -> (next: ScheduledRun?, work: LaunchWork?) {
    guard entry.status == .running else { return (nil, nil) }
    leaveFlight(entry)
    remaining -= 1
    switch outcome {
    case .built:
      entry.status = .built
      var index = entry.dependentsStart
      let end = index + entry.dependentsCount
      while index < end {
        let dependent = dependentList[index]
        dependent.gates -= 1
        makeReady(dependent, at: now)
        index += 1
      }
      if !entry.laterDependents.isEmpty {
        for dependent in entry.laterDependents {
          dependent.gates -= 1
          makeReady(dependent, at: now)
        }
      }
    case .failed:
      entry.status = .failed
      var queue = dependents(of: entry)
      while let dependent = queue.popLast() {
        guard dependent.isPending else { continue }
        if dependent.status == .submitted { leaveFlight(dependent) }
        dependent.status = .skipped
        remaining -= 1
        queue += dependents(of: dependent)
      }
    }
    var carried: Entry?
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

  /// Adds `node` if it is a deferred singleton not built nor scheduled yet; returns its entry
  /// and its idle delay.
  private mutating func addEntry(_ node: AnyNode, order: Int) -> (Entry, Duration?)? {
    // An argument factory's build builds its dependencies only (its walk makes no value).
    guard node.kind.isCached || node.takesArgument, !node.isBuilt else { return nil }
    let priority = node.priority.resolved(in: flags)
    var delay: Duration?
    switch priority.kind {
    case .afterFirstFrame: break
    case .idle(let idle): delay = idle.duration
    default: return nil
    }
    guard entries[node] == nil else { return nil }
    let entry = Entry(
      node: node, priority: priority, order: order, released: delay == nil || idleRequested)
    entries.insert(entry)
    if !entry.released { unreleased.append(entry) }
    remaining += 1
    return (entry, delay)
  }

  /// Gates an entry on the nearest scheduled services it needs, found through unscheduled ones
  /// (iteratively), that run in the same stage or before it, and that are not itself.
  ///
  /// At the first frame (`recording`), each gate is recorded as the index of the entry gated
  /// on, and ``linkDependents(_:edges:)`` makes the lists of dependents once; later, `entry`
  /// joins the ``Entry/laterDependents`` of each.
  ///
  /// One loop over the dependencies' keys, with no closure (a closure's captured counters were
  /// checked for exclusive access at each use); the unscheduled nodes gone through are kept in
  /// a short list, and in a set only past a few.
  private mutating func gate(_ entry: Entry, edges: inout [Int], recording: Bool) {
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
    var node = entry.node
    let stage = entry.priority.stage
    while true {
      let owner = node.owner
      for key in node.knownDependencies {
        guard let found = owner.lookup(key) else { continue }
        // Built ones, the most, are passed over without retaining their node.
        if found._withUnsafeGuaranteedRef({ $0.isReady }) { continue }
        // Looked up without retaining the node: it is retained only to be gone through.
        if let scheduled = found._withUnsafeGuaranteedRef({ entries[$0] }) {
          guard scheduled !== entry, scheduled.priority.stage <= stage, !scheduled.isFinished,
            scheduled.gatedBy != call
          else { continue }
          scheduled.gatedBy = call
          if recording {
            edges.append(scheduled.index)
          } else {
            scheduled.laterDependents.append(entry)
          }
          gates += 1
          continue
        }
        let dependency = found.takeUnretainedValue()
        let id = ObjectIdentifier(dependency)
        if seen.count < 16 {
          guard !seen.contains(id) else { continue }
          seen.append(id)
        } else {
          if seenSet.isEmpty { seenSet = Set(seen) }
          guard seenSet.insert(id).inserted else { continue }
        }
        through.append(dependency)
      }
      guard let next = through.popLast() else { break }
      node = next
    }
    entry.gates += gates
  }

  /// Makes the first frame's lists of dependents from the gates' `edges` (the index in `added`
  /// of each entry gated on, grouped by the entry gated, in `added` order): one list for all,
  /// each entry's dependents a range of it, in the order they were gated (a counting sort).
  /// Returns whether every entry is gated only on entries before it in `added`: then no gate
  /// closes a cycle, and `added` is in topological order.
  private mutating func linkDependents(_ added: [Entry], edges: [Int]) -> Bool {
    // Made once: the first frame comes once, and later gates go to `laterDependents`.
    guard !edges.isEmpty, dependentList.isEmpty else { return edges.isEmpty }
    var forward = true
    for index in edges { added[index].dependentsCount += 1 }
    var start = 0
    for entry in added {
      entry.dependentsStart = start
      start += entry.dependentsCount
      entry.dependentsCount = 0
    }
    dependentList = [Entry](unsafeUninitializedCapacity: edges.count) { buffer, count in
      let base = buffer.baseAddress.unsafelyUnwrapped
      var edge = 0
      for entry in added {
        // Before any is ungated, an entry's gates are its edges, in order.
        for _ in 0..<entry.gates {
          if edges[edge] >= entry.index { forward = false }
          let gatedOn = added[edges[edge]]
          (base + gatedOn.dependentsStart + gatedOn.dependentsCount).initialize(to: entry)
          gatedOn.dependentsCount += 1
          edge += 1
        }
      }
      count = edges.count
    }
    return forward
  }

  /// How many entries are gated on `entry`.
  private func dependentCount(of entry: Entry) -> Int {
    entry.dependentsCount + entry.laterDependents.count
  }

  /// The dependent of `entry` at `index`, in `0 ..< dependentCount(of: entry)`.
  private func dependent(of entry: Entry, at index: Int) -> Entry {
    index < entry.dependentsCount
      ? dependentList[entry.dependentsStart + index]
      : entry.laterDependents[index - entry.dependentsCount]
  }

  /// Every entry gated on `entry`, in a list of its own (for the rare paths).
  private func dependents(of entry: Entry) -> [Entry] {
    (0..<dependentCount(of: entry)).map { dependent(of: entry, at: $0) }
  }

  /// Removes the gates between entries on one cycle (a strongly connected component of the
  /// gates, found iteratively with Tarjan's algorithm, when a first count shows some entry
  /// would never be ready): none would ever be ready. Each then
  /// runs, and its build fails with the cycle; entries gated on them wait for that.
  private mutating func ungateCycles(among entries: [Entry]) {
    // First, cheaply, whether any entry could never be ready (Kahn's count of open gates, in
    // `low`): with no cycle, the common case, nothing more is done.
    var unblocked: [Entry] = []
    unblocked.reserveCapacity(entries.count)
    for entry in entries {
      entry.low = entry.gates
      if entry.gates == 0 { unblocked.append(entry) }
    }
    var reached = 0
    while let entry = unblocked.popLast() {
      reached += 1
      for index in 0..<dependentCount(of: entry) {
        let dependent = self.dependent(of: entry, at: index)
        dependent.low -= 1
        if dependent.low == 0 { unblocked.append(dependent) }
      }
    }
    guard reached < entries.count else { return }
    var counter = 0
    var stack: [Entry] = []
    var path: [(entry: Entry, next: Int)] = []
    var members: [Entry] = []
    func open(_ entry: Entry) {
      entry.visit = counter
      entry.low = counter
      counter += 1
      entry.onStack = true
      stack.append(entry)
      path.append((entry, 0))
    }
    for root in entries where root.visit < 0 && dependentCount(of: root) > 0 {
      open(root)
      while let (entry, next) = path.last {
        if next < dependentCount(of: entry) {
          path[path.count - 1].next += 1
          let dependent = self.dependent(of: entry, at: next)
          if dependent.visit < 0 {
            open(dependent)
          } else if dependent.onStack {
            entry.low = min(entry.low, dependent.visit)
          }
          continue
        }
        path.removeLast()
        if let parent = path.last?.entry { parent.low = min(parent.low, entry.low) }
        guard entry.low == entry.visit else { continue }
        // Most components are one entry (no cycle): they cost no allocation.
        members.removeAll(keepingCapacity: true)
        while let member = stack.popLast() {
          member.onStack = false
          members.append(member)
          if member === entry { break }
        }
        guard members.count > 1 else { continue }
        let component = Set(members.lazy.map(ObjectIdentifier.init))
        for member in members {
          var kept = 0
          for index in member.dependentsStart..<member.dependentsStart + member.dependentsCount {
            let dependent = dependentList[index]
            if component.contains(ObjectIdentifier(dependent)) {
              dependent.gates -= 1
            } else {
              dependentList[member.dependentsStart + kept] = dependent
              kept += 1
            }
          }
          member.dependentsCount = kept
          member.laterDependents.removeAll { dependent in
            guard component.contains(ObjectIdentifier(dependent)) else { return false }
            dependent.gates -= 1
            return true
          }
        }
      }
    }
  }

  /// Marks `entry` ready to run, if nothing holds it back any more.
  private mutating func makeReady(_ entry: Entry, at now: UInt64) {
    guard entry.status == .blocked, entry.gates == 0, entry.released else { return }
    entry.status = .ready
    entry.readyAt = entry.readyAt ?? now
    if entry.isAsync {
      readyAsync.append(entry)
    } else if entry.isMainLane {
      readyMain.push(entry)
    } else {
      readySync.push(entry)
    }
  }

  /// An entry handed over leaves the builds in flight: ended, skipped, cancelled, or held by a
  /// pause.
  private mutating func leaveFlight(_ entry: Entry) {
    if entry.isMainLane {
      mainInFlight = false
    } else if !entry.isAsync {
      inFlight -= 1
    }
  }

  /// Stage, then quality of service, then the minor rank (registration order, or with a
  /// history the longest remaining path first): lower runs first.
  private static func rank(_ entry: Entry) -> UInt64 {
    let qos = UInt64(BuildQoS.allCases.firstIndex(of: entry.priority.qos) ?? 0)
    return UInt64(entry.priority.stage.rawValue) << 56 | qos << 48 | entry.minorRank
  }

  /// Sets the first frame's entries' ranks, and numbers the synchronous ones of each ready
  /// queue in rank order: the queue keeps them as a bit set by that number, and pushes and
  /// pops each in a few instructions instead of a heap's O(log n) steps.
  ///
  /// Numbered by class (stage and quality of service, the rank's major keys) in the order they
  /// come, which is rank order within a class when the minor rank is the registration order
  /// (no history): a count per class, no sort. A queue whose entries come out of order within
  /// a class (ranked by paths) is sorted by rank instead.
  private mutating func placeInRankOrder(_ added: [Entry]) {
    // Per class of each queue (sync 0 ..< 16, main 16 ..< 32): its count, then its next number,
    // and the last rank seen in it.
    var next = [Int](repeating: 0, count: 32)
    var last = [UInt64](repeating: 0, count: 32)
    var inOrder = (sync: true, main: true)
    for entry in added {
      entry.rank = Self.rank(entry)
      guard !entry.isAsync else { continue }
      let slot = Self.rankClass(entry.rank) | (entry.isMainLane ? 16 : 0)
      if next[slot] > 0 && last[slot] > entry.rank {
        if entry.isMainLane { inOrder.main = false } else { inOrder.sync = false }
      }
      last[slot] = entry.rank
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
    for entry in added where !entry.isAsync {
      let slot = Self.rankClass(entry.rank) | (entry.isMainLane ? 16 : 0)
      entry.position = next[slot]
      next[slot] += 1
    }
    for lane in [false, true] where !(lane ? inOrder.main : inOrder.sync) {
      let sorted = added.filter { !$0.isAsync && $0.isMainLane == lane }.sorted {
        $0.rank < $1.rank
      }
      for (position, entry) in sorted.enumerated() { entry.position = position }
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
  /// `topological`: `entries` are in topological order already (each after those it is gated
  /// on), and Kahn's sort is not needed.
  private mutating func rankByLongestPath(_ entries: [Entry], topological: Bool) {
    // The path in 24 bits and the order in 24: beyond 16 million entries, registration order.
    guard let history, history.launchCount > 0, entries.count <= Self.pathRankMax else { return }
    // Each entry's cost in `minorRank` for now (unknown: `.max`), its gates left in `low`.
    var known: [UInt64] = []
    known.reserveCapacity(entries.count)
    var sorted: [Entry] = []
    sorted.reserveCapacity(entries.count)
    for entry in entries {
      let cost = cost(of: entry)
      if let cost { known.append(cost) }
      entry.minorRank = cost ?? .max
      entry.low = entry.gates
      if entry.gates == 0 { sorted.append(entry) }
    }
    guard !known.isEmpty else {
      for entry in entries { entry.minorRank = UInt64(entry.order) }
      return
    }
    known.sort()
    let unknownCost = known[(known.count - 1) / 2]
    // Kahn's order: gates come only from these entries, and no cycle is left among them.
    if topological { sorted = entries }
    var next = topological ? sorted.count : 0
    while next < sorted.count {
      for index in 0..<dependentCount(of: sorted[next]) {
        let dependent = self.dependent(of: sorted[next], at: index)
        dependent.low -= 1
        if dependent.low == 0 { sorted.append(dependent) }
      }
      next += 1
    }
    var longest: UInt64 = 0
    for entry in sorted.reversed() {
      var tail: UInt64 = 0
      for index in 0..<dependentCount(of: entry) {
        tail = max(tail, dependent(of: entry, at: index).minorRank)
      }
      let cost = entry.minorRank == .max ? unknownCost : entry.minorRank
      let (path, overflow) = cost.addingReportingOverflow(tail)
      entry.minorRank = overflow ? .max - 1 : path
      longest = max(longest, entry.minorRank)
    }
    for entry in entries {
      entry.minorRank = Self.pathRank(path: entry.minorRank, longest: longest, order: entry.order)
    }
    pathScale = (unknownCost, longest)
  }

  /// The typical self time of `entry`'s service, in nanoseconds, if the history knows it.
  private func cost(of entry: Entry) -> UInt64? {
    guard let time = history?.typicalSelfTime(of: entry.node.key.description) else { return nil }
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
    carryingOn qos: BuildQoS? = nil, carried: inout Entry?
  ) -> [Entry] {
    guard !paused, phase == .deferring || phase == .fullyReady else { return [] }
    var taken: [Entry] = []
    if !readyAsync.isEmpty {
      for entry in readyAsync where entry.status == .ready {
        entry.status = .submitted
        taken.append(entry)
      }
      readyAsync = []
    }
    while inFlight < width, let entry = readySync.pop() {
      guard entry.status == .ready else { continue }
      entry.status = .submitted
      inFlight += 1
      if carried == nil, let qos, entry.priority.qos == qos {
        carried = entry
      } else {
        taken.append(entry)
      }
    }
    while !mainInFlight, let entry = readyMain.pop() {
      guard entry.status == .ready else { continue }
      entry.status = .submitted
      mainInFlight = true
      taken.append(entry)
    }
    return taken
  }

  /// ``takeSubmittable(carryingOn:carried:)`` with nothing carried.
  private mutating func takeSubmittable() -> [Entry] {
    var carried: Entry?
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
  var submit: [LaunchSchedule.Entry] = []
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
  init(submit: [LaunchSchedule.Entry], next: ScheduledRun?) {
    self.submit = submit
    self.next = next
  }

  /// Work that hands over `submit` and arms `timers`.
  init(
    submit: [LaunchSchedule.Entry] = [], timers: [Duration] = [], reachedFirstFrame: Bool = false
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
  var cancelled: [LaunchSchedule.Entry] {
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
    var cancelled: [LaunchSchedule.Entry] = []

    func copy() -> Rare {
      let copy = Rare()
      (copy.timers, copy.ready, copy.shutDown, copy.cancelled) = (
        timers, ready, shutDown, cancelled
      )
      return copy
    }
  }
}

/// A scheduled build about to run: its service, and what its build context records.
struct ScheduledRun: Sendable {
  let entry: LaunchSchedule.Entry
  var node: AnyNode { entry.node }
  let qos: BuildQoS
  let readyAt: UInt64?
  /// When the schedule started it.
  let startedAt: UInt64
  /// The launch's flags, `nil` if it has none.
  let flags: Set<LaunchFlag>?

  /// Sets `context` up for this build.
  func prepare(_ context: BuildContext) {
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

/// Ready builds, best (lowest rank) first.
///
/// The first frame numbers its entries in rank order (``LaunchSchedule/Entry/position``), and
/// the queue keeps them as a bit set by that number, two levels deep: a push sets two bits, a
/// pop finds the lowest set bit of a summary word and of a word, whatever the number of
/// entries, where a heap moves an entry through O(log n) levels. An entry with no number (one
/// added after the first frame) waits in a heap beside it, and a pop takes the better of the
/// two. Ranks are distinct (each ends with the registration order), so the order is the
/// heap's.
struct RankedQueue {
  /// The queued entries by position.
  private var slots: [LaunchSchedule.Entry?] = []
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
    slots = Array(repeating: nil, count: count)
    words = Array(repeating: 0, count: (count + 63) / 64)
    summary = Array(repeating: 0, count: (words.count + 63) / 64)
    lowest = 0
  }

  /// Queues `entry` by its ``LaunchSchedule/Entry/rank``.
  mutating func push(_ entry: LaunchSchedule.Entry) {
    let position = entry.position
    guard position >= 0, position < slots.count else {
      spill.push(entry, rank: entry.rank)
      return
    }
    slots[position] = entry
    let word = position >> 6
    words[word] |= 1 << UInt64(position & 63)
    summary[word >> 6] |= 1 << UInt64(word & 63)
    lowest = min(lowest, word >> 6)
  }

  /// Takes the entry of the lowest rank.
  mutating func pop() -> LaunchSchedule.Entry? {
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
    if let spilled = spill.topRank,
      position < 0 || spilled < slots[position].unsafelyUnwrapped.rank
    {
      return spill.pop()
    }
    guard position >= 0 else { return nil }
    let entry = slots[position]
    slots[position] = nil
    let word = position >> 6
    // The lowest set bit of each is this position's and its word's.
    words[word] &= words[word] &- 1
    if words[word] == 0 { summary[lowest] &= summary[lowest] &- 1 }
    return entry
  }

  mutating func removeAll() { self = RankedQueue() }
}

/// A binary min-heap of entries by rank, in O(log n): the ready queue's entries that have no
/// position, and the reference its order is tested against.
struct RankedHeap {
  private var items: [(rank: UInt64, entry: LaunchSchedule.Entry)] = []

  var isEmpty: Bool { items.isEmpty }

  /// The lowest rank queued.
  var topRank: UInt64? { items.first?.rank }

  mutating func push(_ entry: LaunchSchedule.Entry, rank: UInt64) {
    items.append((rank, entry))
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child].rank < items[parent].rank else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() -> LaunchSchedule.Entry? {
    guard !items.isEmpty else { return nil }
    items.swapAt(0, items.count - 1)
    let best = items.removeLast().entry
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

/// The launch's entries by node: an open-addressing table hashed by the node's address with a
/// multiply-shift. Making the schedule looks an entry up for every edge of the graph, and a
/// `Dictionary` would hash each address with SipHash.
struct EntryTable {
  private var slots: [LaunchSchedule.Entry?] = Array(repeating: nil, count: 16)
  private(set) var count = 0

  /// Every entry, in no particular order.
  var values: [LaunchSchedule.Entry] { slots.compactMap { $0 } }

  /// The entry of `node`, if it has one.
  subscript(node: AnyNode) -> LaunchSchedule.Entry? {
    var index = Self.index(of: node, in: slots.count)
    while let entry = slots[index] {
      if entry.node === node { return entry }
      index = (index + 1) & (slots.count - 1)
    }
    return nil
  }

  /// Adds an entry; its node must have none yet.
  mutating func insert(_ entry: LaunchSchedule.Entry) {
    if (count + 1) * 2 > slots.count { reserveCapacity(count + 1) }
    Self.place(entry, in: &slots)
    count += 1
  }

  /// Makes room for `capacity` entries in all, at most half the slots full.
  mutating func reserveCapacity(_ capacity: Int) {
    guard capacity * 2 > slots.count else { return }
    var size = slots.count
    while capacity * 2 > size { size *= 2 }
    var grown = [LaunchSchedule.Entry?](repeating: nil, count: size)
    for case let entry? in slots { Self.place(entry, in: &grown) }
    slots = grown
  }

  private static func place(_ entry: LaunchSchedule.Entry, in slots: inout [LaunchSchedule.Entry?])
  {
    var index = index(of: entry.node, in: slots.count)
    while slots[index] != nil { index = (index + 1) & (slots.count - 1) }
    slots[index] = entry
  }

  private static func index(of node: AnyNode, in size: Int) -> Int {
    multiplyShift(
      UInt(bitPattern: ObjectIdentifier(node)), shift: UInt.bitWidth - size.trailingZeroBitCount)
  }
}
