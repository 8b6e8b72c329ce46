/// A container's launch and the deferred builds it schedules, as one state machine: every
/// transition returns what the container must do outside the launch lock (a ``LaunchWork``,
/// or an error). Nothing here takes a lock, runs a factory or calls a scheduler. Phases,
/// statuses and transitions: Docs/Design.md, "Launch schedule".
struct LaunchSchedule: Sendable {
  enum Phase: UInt8, Equatable, Sendable {
    case notLaunched
    case launching
    case launched
    case deferring
    case fullyReady
    case shutDown
  }

  enum Status: Equatable, Sendable {
    case blocked
    case ready
    case submitted
    case running
    case built
    case failed
    /// A scheduled dependency failed: left to be built on demand.
    case skipped
    case cancelled
  }

  enum Outcome: Equatable, Sendable {
    case built
    case failed
  }

  /// An entry's place in the schedule's list, which is the order it was added in.
  typealias EntryID = Int

  /// One deferred build, linked to others by their numbers.
  struct Entry: Sendable {
    let node: AnyNode
    let priority: Priority
    /// An async build holds no thread and does not count against the width.
    let isAsync: Bool
    /// A synchronous main-actor service: one build a turn of the main queue.
    let isMainLane: Bool
    /// Registration order, or with a history the longest remaining path first.
    fileprivate(set) var minorRank: UInt64
    /// Scheduled dependencies not built yet.
    fileprivate(set) var gates = 0
    /// Its first-frame dependents: a range of the schedule's `dependentList`.
    fileprivate var dependentsStart = 0
    fileprivate var dependentsCount = 0
    /// Dependents gated on it after the first frame (registered late).
    fileprivate var laterDependents: [EntryID] = []
    /// The last `gate` call that gated an entry on it, if any: an entry is gated on it once.
    fileprivate var gatedBy: Int?
    /// For idle services: released by their delay or by ``appIsIdle(now:)``.
    fileprivate(set) var released: Bool
    fileprivate(set) var status = Status.blocked
    /// When it became ready to run, for the time it spent queued.
    fileprivate(set) var readyAt: UInt64?

    init(node: AnyNode, priority: Priority, id: EntryID, released: Bool) {
      self.node = node
      self.priority = priority
      self.isAsync = node.isAsync
      self.isMainLane = node.isMainActor && !node.isAsync
      self.minorRank = UInt64(id)
      self.released = released
    }

    /// Stage, quality of service and minor rank in one key: lower runs first.
    var rank: UInt64 { LaunchSchedule.rank(priority, minor: minorRank) }

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

  /// Someone waiting for full readiness; a shutdown releases a callback uncalled and resumes a
  /// continuation throwing.
  enum Waiter: Sendable {
    case callback(@Sendable () -> Void)
    case continuation(CheckedContinuation<Void, any Error>)
  }

  private(set) var phase = Phase.notLaunched
  private(set) var flags: Set<LaunchFlag> = []
  private(set) var paused = false
  private(set) var milestones = Milestones()
  private var idleRequested = false
  /// Every entry, by ``EntryID``: the first frame's, then those adopted later.
  private var entries: [Entry] = []
  private var entryIDs: [ObjectIdentifier: EntryID] = [:]
  /// Entries that may run now: background and main-lane ones best first, async ones in order.
  /// An entry skipped or cancelled meanwhile is dropped when it comes up.
  private var readySync = RankedQueue()
  private var readyMain = RankedQueue()
  private var readyAsync: [EntryID] = []
  /// Synchronous background builds handed to the scheduler or running: bounded by `width`.
  private(set) var inFlight = 0
  /// Whether a main-lane build is handed over or running: the next waits for it to end.
  private(set) var mainInFlight = false
  private(set) var remaining = 0
  private var waiters: [Waiter] = []
  /// Idle entries not released yet, in the order they were added.
  private var unreleased: [EntryID] = []
  /// The first frame's dependents, entry by entry (``Entry/dependentsStart``).
  private var dependentList: [EntryID] = []
  /// Scratch of `gate`, empty between calls.
  private var gateSeen: Set<ObjectIdentifier> = []
  private var gateThrough: [AnyNode] = []
  /// Numbers the `gate` calls, for ``Entry/gatedBy``.
  private var gateCalls = 0
  /// How many synchronous builds may be in flight at once.
  let width: Int
  private let pastLaunches: (any PastLaunches)?
  /// Once ranked by paths: the cost of a service the history does not know, and the longest
  /// path, which scales the ranks.
  private var pathScale: (unknownCost: UInt64, longest: UInt64)?

  init(width: Int, pastLaunches: (any PastLaunches)? = nil) {
    self.width = max(1, width)
    self.pastLaunches = pastLaunches
  }

  var isFullyReady: Bool { phase == .fullyReady }

  func entryID(for node: AnyNode) -> EntryID? { entryIDs[ObjectIdentifier(node)] }

  func entry(for node: AnyNode) -> Entry? { entryID(for: node).map { entries[$0] } }

  func entry(_ id: EntryID) -> Entry { entries[id] }

  /// Whether `node` may have to be scheduled: a singleton whose priority is not fixed to
  /// critical or on demand.
  static func mayBeScheduled(_ node: AnyNode) -> Bool {
    guard node.kind.isCached || node.takesArgument else { return false }
    switch node.priority.kind {
    case .afterFirstFrame, .idle, .when: return true
    case .critical, .onDemand: return false
    }
  }

  // MARK: - The launch

  /// `notLaunched → launching`; refused in every other phase, naming `container`.
  mutating func beginLaunch(
    flags: Set<LaunchFlag>, now: UInt64, container: String = "this container"
  ) -> DeferredError? {
    guard phase == .notLaunched else {
      let detail =
        phase == .shutDown
        ? "launch() was called on \(container), which was shut down: a shutdown is final,"
          + " so launch a new container instead"
        : "launch() was called again on \(container), which launches once: call launch() once,"
          + " as the app starts, then firstFrameDrawn(); a launch of its own (a test's) needs"
          + " a new container"
      return DeferredError(.launchOrder, key: Self.launchKey, chain: [], detail: detail)
    }
    phase = .launching
    self.flags = flags
    milestones.launchBegan = now
    return nil
  }

  /// `launching → launched`, or back to `notLaunched` when a critical build failed; a
  /// shutdown meanwhile stays, and is returned.
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
        .launchOrder, key: Self.launchKey, chain: [],
        detail: "launch() ended while no launch was under way")
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
    entries.reserveCapacity(nodes.count)
    entryIDs.reserveCapacity(nodes.count)
    var delays: Set<Duration> = []
    for node in nodes {
      if let (_, delay) = addEntry(node), let delay { delays.insert(delay) }
    }
    // Each entry's gates, as the number of the entry gated on, grouped by the entry gated.
    var edges: [EntryID] = []
    edges.reserveCapacity(entries.count * 2)
    for id in entries.indices { gate(id, into: &edges) }
    // With every gate on an earlier entry, no gate closes a cycle.
    if !linkDependents(edges: edges) { ungateCycles() }
    if pastLaunches != nil { rankByLongestPath() }
    readySync.reserveCapacity(entries.count)
    for id in entries.indices { makeReady(id, at: now) }
    var work = LaunchWork(events: delays.sorted().map(LaunchWork.Event.timer))
    work.reachedFirstFrame = true
    completeIfDone(&work, at: now)
    work.submit = takeSubmittable().submit
    return .success(work)
  }

  /// Schedules a deferred service registered after the first frame, as if it had been there;
  /// once fully ready, the app stays so. Before the first frame, nothing.
  mutating func adopt(node: AnyNode, now: UInt64) -> LaunchWork {
    guard phase == .deferring || phase == .fullyReady, let (id, delay) = addEntry(node) else {
      return LaunchWork()
    }
    // A new entry has no dependents yet: it can close no loop but through itself, which
    // `gate` leaves out. Its path is its own cost: the first frame's paths are not made again.
    var gatedOn: [EntryID] = []
    gate(id, into: &gatedOn)
    for scheduled in gatedOn { entries[scheduled].laterDependents.append(id) }
    if let (unknownCost, longest) = pathScale {
      entries[id].minorRank = Self.pathRank(
        path: cost(of: id) ?? unknownCost, longest: longest, order: id)
    }
    makeReady(id, at: now)
    return LaunchWork(submit: takeSubmittable().submit, events: delay.map { [.timer($0)] } ?? [])
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
    return LaunchWork(submit: takeSubmittable().submit)
  }

  /// Idle entries, now and later, are released at once.
  mutating func appIsIdle(now: UInt64) -> LaunchWork {
    idleRequested = true
    return releaseIdle(upTo: nil, now: now)
  }

  mutating func pause() {
    paused = true
  }

  mutating func resume() -> LaunchWork {
    paused = false
    return LaunchWork(submit: takeSubmittable().submit)
  }

  /// Any phase → `shutDown`, for good: entries that have not started are cancelled, waiters
  /// are failed, callbacks released. Again: nothing.
  mutating func shutDown() -> LaunchWork {
    guard phase != .shutDown else { return LaunchWork() }
    var work = LaunchWork()
    work.awaitRunning = phase == .deferring || phase == .fullyReady
    phase = .shutDown
    for id in entries.indices where entries[id].isPending {
      if entries[id].status == .submitted { leaveFlight(id) }
      entries[id].status = .cancelled
      work.events.append(.cancelled(scheduledBuild(id)))
    }
    readySync.removeAll()
    readyMain.removeAll()
    readyAsync = []
    work.events += waiters.map(LaunchWork.Event.shutDown)
    waiters = []
    return work
  }

  /// Told at once if the app is fully ready or shut down.
  mutating func addFullyReadyWaiter(_ waiter: Waiter) -> LaunchWork {
    var work = LaunchWork()
    switch phase {
    case .fullyReady: work.events = [.ready(waiter)]
    case .shutDown: work.events = [.shutDown(waiter)]
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

  /// The launch's flags for a scheduled build's context, `nil` if it has none.
  var runFlags: Set<LaunchFlag>? { flags.isEmpty ? nil : flags }

  /// `running → built` or `failed` (skipping the entries that need it). Given `qos`, starts the
  /// first ready synchronous build of that quality of service for this thread to run next.
  mutating func finish(
    _ id: EntryID, _ outcome: Outcome, carryingOn qos: BuildQoS? = nil, now: UInt64
  ) -> LaunchWork {
    guard entries[id].status == .running else { return LaunchWork() }
    leaveFlight(id)
    remaining -= 1
    switch outcome {
    case .built:
      entries[id].status = .built
      for index in 0..<dependentCount(of: id) {
        let dependent = dependent(of: id, at: index)
        entries[dependent].gates -= 1
        makeReady(dependent, at: now)
      }
    case .failed:
      entries[id].status = .failed
      skipDependents(of: id)
    }
    let (submit, carried) = takeSubmittable(carryingOn: qos)
    var work = LaunchWork(submit: submit, next: carried.flatMap { start($0, now: now) })
    completeIfDone(&work, at: now)
    return work
  }

  // MARK: - Inside

  /// The key of errors about the launch itself, which no service causes.
  static let launchKey = AnyServiceKey(Container.self, name: "launch")

  /// `deferring → fullyReady` once every entry has ended: the waiters are told.
  private mutating func completeIfDone(_ work: inout LaunchWork, at now: UInt64) {
    guard phase == .deferring, remaining == 0 else { return }
    phase = .fullyReady
    milestones.fullyReady = now
    work.reachedFullyReady = true
    work.events += waiters.map(LaunchWork.Event.ready)
    waiters = []
  }

  private func scheduledBuild(_ id: EntryID) -> ScheduledBuild {
    ScheduledBuild(
      id: id, node: entries[id].node, priority: entries[id].priority,
      isMainLane: entries[id].isMainLane)
  }

  /// Adds `node` if it is a deferred singleton not built nor scheduled yet; returns its
  /// entry's number and its idle delay.
  private mutating func addEntry(_ node: AnyNode) -> (EntryID, Duration?)? {
    // An argument factory's build builds its dependencies only (its walk makes no value).
    guard node.kind.isCached || node.takesArgument, !node.isBuilt else { return nil }
    let priority = node.priority.resolved(in: flags)
    var delay: Duration?
    switch priority.kind {
    case .afterFirstFrame: break
    case .idle(let idle): delay = idle.duration
    default: return nil
    }
    let id = entries.count
    // One lookup in the common case; a node scheduled already keeps its number.
    if let scheduled = entryIDs.updateValue(id, forKey: ObjectIdentifier(node)) {
      entryIDs[ObjectIdentifier(node)] = scheduled
      return nil
    }
    let released = delay == nil || idleRequested
    entries.append(Entry(node: node, priority: priority, id: id, released: released))
    if !released { unreleased.append(id) }
    remaining += 1
    return (id, delay)
  }

  /// Gates entry `id` on the nearest unfinished scheduled services it needs, of its stage or an
  /// earlier one, found through unscheduled, unbuilt ones; appends each to `edges`.
  private mutating func gate(_ id: EntryID, into edges: inout [EntryID]) {
    gateCalls += 1
    let call = gateCalls
    let stage = entries[id].priority.stage
    if !gateSeen.isEmpty { gateSeen.removeAll(keepingCapacity: true) }
    var node = entries[id].node
    while true {
      for key in node.knownDependencies {
        // Built ones, the most, gate nothing.
        guard let dependency = node.owner.lookup(dependency: key), !dependency.isPublished
        else { continue }
        if let scheduled = entryIDs[ObjectIdentifier(dependency)] {
          guard scheduled != id, entries[scheduled].priority.stage <= stage,
            !entries[scheduled].isFinished, entries[scheduled].gatedBy != call
          else { continue }
          entries[scheduled].gatedBy = call
          entries[id].gates += 1
          edges.append(scheduled)
        } else if gateSeen.insert(ObjectIdentifier(dependency)).inserted {
          gateThrough.append(dependency)
        }
      }
      guard let next = gateThrough.popLast() else { return }
      node = next
    }
  }

  /// Makes `dependentList` from the gates' `edges`, grouped by the entry gated (a counting
  /// sort). Returns whether every entry is gated only on earlier ones: then there is no cycle.
  private mutating func linkDependents(edges: [EntryID]) -> Bool {
    guard !edges.isEmpty else { return true }
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

  private func dependentCount(of id: EntryID) -> Int {
    entries[id].dependentsCount + entries[id].laterDependents.count
  }

  /// The dependent of `id` at `index`, in `0 ..< dependentCount(of: id)`.
  private func dependent(of id: EntryID, at index: Int) -> EntryID {
    index < entries[id].dependentsCount
      ? dependentList[entries[id].dependentsStart + index]
      : entries[id].laterDependents[index - entries[id].dependentsCount]
  }

  /// Skips every pending entry that needs `id`, directly or through others.
  private mutating func skipDependents(of id: EntryID) {
    var queue = [id]
    while let gatedOn = queue.popLast() {
      for index in 0..<dependentCount(of: gatedOn) {
        let dependent = dependent(of: gatedOn, at: index)
        guard entries[dependent].isPending else { continue }
        if entries[dependent].status == .submitted { leaveFlight(dependent) }
        entries[dependent].status = .skipped
        remaining -= 1
        queue.append(dependent)
      }
    }
  }

  /// The first frame's entries, each after those it is gated on (Kahn's algorithm); an entry
  /// on a cycle, or gated on one, is left out.
  private func topologicalOrder() -> [EntryID] {
    var open = entries.map(\.gates)
    var order = entries.indices.filter { open[$0] == 0 }
    var next = 0
    while next < order.count {
      let id = order[next]
      for index in 0..<dependentCount(of: id) {
        let dependent = dependent(of: id, at: index)
        open[dependent] -= 1
        if open[dependent] == 0 { order.append(dependent) }
      }
      next += 1
    }
    return order
  }

  /// Removes the gates between the first frame's entries on one cycle, which would never be
  /// ready otherwise: each then runs, and fails with the cycle.
  private mutating func ungateCycles() {
    guard topologicalOrder().count < entries.count else { return }
    for component in cycles() {
      let members = Set(component)
      for member in component {
        let start = entries[member].dependentsStart
        var kept = 0
        for index in start..<start + entries[member].dependentsCount {
          let dependent = dependentList[index]
          if members.contains(dependent) {
            entries[dependent].gates -= 1
          } else {
            dependentList[start + kept] = dependent
            kept += 1
          }
        }
        entries[member].dependentsCount = kept
      }
    }
  }

  /// The strongly connected components of more than one entry in the graph of gates
  /// (Tarjan's algorithm, iteratively: a long chain needs no deep stack).
  private func cycles() -> [[EntryID]] {
    var visit = [Int](repeating: -1, count: entries.count)
    var low = [Int](repeating: 0, count: entries.count)
    var onStack = [Bool](repeating: false, count: entries.count)
    var counter = 0
    var stack: [EntryID] = []
    var path: [(id: EntryID, next: Int)] = []
    var components: [[EntryID]] = []
    func open(_ id: EntryID) {
      visit[id] = counter
      low[id] = counter
      counter += 1
      onStack[id] = true
      stack.append(id)
      path.append((id, 0))
    }
    for root in entries.indices where visit[root] < 0 {
      open(root)
      while let (id, next) = path.last {
        if next < dependentCount(of: id) {
          path[path.count - 1].next += 1
          let dependent = dependent(of: id, at: next)
          if visit[dependent] < 0 {
            open(dependent)
          } else if onStack[dependent] {
            low[id] = min(low[id], visit[dependent])
          }
          continue
        }
        path.removeLast()
        if let parent = path.last?.id { low[parent] = min(low[parent], low[id]) }
        guard low[id] == visit[id] else { continue }
        var component: [EntryID] = []
        while let member = stack.popLast() {
          onStack[member] = false
          component.append(member)
          if member == id { break }
        }
        if component.count > 1 { components.append(component) }
      }
    }
    return components
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
      readyMain.push(id, rank: entries[id].rank)
    } else {
      readySync.push(id, rank: entries[id].rank)
    }
  }

  /// An entry handed over leaves the builds in flight.
  private mutating func leaveFlight(_ id: EntryID) {
    if entries[id].isMainLane {
      mainInFlight = false
    } else if !entries[id].isAsync {
      inFlight -= 1
    }
  }

  /// Stage, then quality of service, then the minor rank: lower runs first.
  static func rank(_ priority: Priority, minor: UInt64) -> UInt64 {
    let qos = UInt64(BuildQoS.allCases.firstIndex(of: priority.qos) ?? 0)
    return UInt64(priority.stage.rawValue) << 56 | qos << 48 | minor
  }

  /// Ranks the first frame's entries by their longest path of remembered self times through
  /// their dependents (critical-path list scheduling), within a stage and quality of service.
  /// A service the history does not know costs the median of the known ones.
  private mutating func rankByLongestPath() {
    // The path in 24 bits and the order in 24: beyond 16 million entries, registration order.
    guard let pastLaunches, pastLaunches.launchCount > 0, entries.count <= Self.pathRankMax else {
      return
    }
    let costs = entries.indices.map { cost(of: $0) }
    let known = costs.compactMap { $0 }.sorted()
    guard !known.isEmpty else { return }
    let unknownCost = known[(known.count - 1) / 2]
    var path = [UInt64](repeating: 0, count: entries.count)
    var longest: UInt64 = 0
    for id in topologicalOrder().reversed() {
      var tail: UInt64 = 0
      for index in 0..<dependentCount(of: id) {
        tail = max(tail, path[dependent(of: id, at: index)])
      }
      let (sum, overflow) = (costs[id] ?? unknownCost).addingReportingOverflow(tail)
      path[id] = overflow ? .max : sum
      longest = max(longest, path[id])
    }
    for id in entries.indices {
      entries[id].minorRank = Self.pathRank(path: path[id], longest: longest, order: id)
    }
    pathScale = (unknownCost, longest)
  }

  /// The typical self time of entry `id`'s service, in nanoseconds.
  private func cost(of id: EntryID) -> UInt64? {
    pastLaunches?.typicalSelfTime(of: entries[id].node.key.description)?.nanoseconds
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
  /// up to `width`, one main-lane build if none is in flight. Given `qos`, the first
  /// synchronous one of that quality of service is `carried`, for this thread to run next.
  private mutating func takeSubmittable(carryingOn qos: BuildQoS? = nil) -> (
    submit: [ScheduledBuild], carried: EntryID?
  ) {
    guard !paused, phase == .deferring || phase == .fullyReady else { return ([], nil) }
    var taken: [ScheduledBuild] = []
    var carried: EntryID?
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
    return (taken, carried)
  }
}

/// When each step of the launch happened, in nanoseconds on the container's clock.
struct Milestones: Sendable {
  var launchBegan: UInt64?
  var criticalReady: UInt64?
  var firstFrame: UInt64?
  var fullyReady: UInt64?
}
