#if canImport(os)
  import os
#endif

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One build as captured: keys and clock readings only. Names are made when a report is made,
/// never while the app launches. Every build keeps one until the container goes, so it stays
/// small (Benchmarks/README.md, "Why the core is shaped as it is").
struct RawBuild: Sendable {
  /// How it ended.
  enum Outcome: Sendable {
    case built
    case failed(DeferredError)
    case cancelled
  }

  /// A time that was not taken: `queued` of a build that was not scheduled, `cpu` where the
  /// clock has no thread CPU time.
  static let none = UInt64.max

  let node: AnyNode
  private let requesterType: Any.Type?
  private let requesterName: String?
  let start: UInt64
  let end: UInt64
  let nested: UInt64
  private let queuedOrNone: UInt64
  private let cpuOrNone: UInt64
  let outcome: Outcome
  private let attempt32: Int32
  private let generation32: Int32
  /// The thread that ran the factory, as its index in ``ThreadNames``.
  private let threadIndex: UInt32
  let priority: Priority
  let trigger: BuildTrigger
  let qos: BuildQoS?

  /// A record of a build on the thread `thread` (interned here: the build paths pass their
  /// context's index instead).
  init(
    node: AnyNode, priority: Priority, trigger: BuildTrigger, requestedBy: AnyServiceKey?,
    thread: ThreadInfo, qos: BuildQoS?, queued: UInt64?, start: UInt64, end: UInt64,
    nested: UInt64, cpu: UInt64?, outcome: Outcome, attempt: Int, generation: Int = 0
  ) {
    self.init(
      node: node, priority: priority, trigger: trigger, requestedBy: requestedBy,
      threadIndex: ThreadNames.index(of: thread), qos: qos, queued: queued, start: start,
      end: end, nested: nested, cpu: cpu, outcome: outcome, attempt: attempt,
      generation: generation)
  }

  /// A record of a build on the thread of index `threadIndex` in ``ThreadNames``.
  init(
    node: AnyNode, priority: Priority, trigger: BuildTrigger, requestedBy: AnyServiceKey?,
    threadIndex: UInt32, qos: BuildQoS?, queued: UInt64?, start: UInt64, end: UInt64,
    nested: UInt64, cpu: UInt64?, outcome: Outcome, attempt: Int, generation: Int = 0
  ) {
    self.node = node
    requesterType = requestedBy?.type
    requesterName = requestedBy?.name
    self.threadIndex = threadIndex
    self.start = start
    self.end = end
    self.nested = nested
    queuedOrNone = queued ?? Self.none
    cpuOrNone = cpu ?? Self.none
    self.outcome = outcome
    attempt32 = Int32(truncatingIfNeeded: attempt)
    generation32 = Int32(truncatingIfNeeded: generation)
    self.priority = priority
    self.trigger = trigger
    self.qos = qos
  }

  /// The service whose build needed this one, if any.
  var requestedBy: AnyServiceKey? {
    requesterType.map { AnyServiceKey($0, name: requesterName) }
  }
  /// The thread that ran the factory.
  var thread: ThreadInfo { ThreadNames.thread(at: threadIndex) }
  /// For a scheduled build: how long it waited in its queue.
  var queued: UInt64? { queuedOrNone == Self.none ? nil : queuedOrNone }
  /// The thread CPU time the build took, where the clock measures it.
  var cpu: UInt64? { cpuOrNone == Self.none ? nil : cpuOrNone }
  /// Which attempt this was.
  var attempt: Int { Int(attempt32) }
  /// The generation of a held service this build made (0 for any other).
  var generation: Int { Int(generation32) }
}

/// One wait for another context's build.
struct RawWait: Sendable {
  let node: AnyNode
  let attempt: Int
  let waiter: ThreadInfo
  let waiterService: AnyServiceKey?
  let start: UInt64
  let end: UInt64
}

/// What a build context notes while one of its builds runs. Small, as the walk keeps one in
/// each claimed frame: an absent CPU time is a sentinel, the generation 32 bits.
struct Span {
  let start: UInt64
  /// The context's ``BuildContext/nestedTotal`` when the build began.
  let nestedBase: UInt64
  private let cpuOrNone: UInt64
  private let generation32: Int32
  /// Its signpost interval (Apple platforms).
  let signpost: Signposts.Interval

  @inline(__always)
  init(
    start: UInt64, nestedBase: UInt64, cpu: UInt64?, signpost: Signposts.Interval,
    generation: Int = 0
  ) {
    self.start = start
    self.nestedBase = nestedBase
    cpuOrNone = cpu ?? RawBuild.none
    generation32 = Int32(truncatingIfNeeded: generation)
    self.signpost = signpost
  }

  /// The generation of the service the build makes.
  var generation: Int { Int(generation32) }

  /// The thread CPU time at the start, where the build's CPU time is measured.
  var cpu: UInt64? { cpuOrNone == RawBuild.none ? nil : cpuOrNone }
}

/// A transient service's makings: counts and totals, and the first
/// ``TransientStats/sampleLimit`` durations for the median.
///
/// Every making is counted. The first ``sampleLimit`` are all timed; after them, one making at
/// once in ``timingStride`` is (a making inside a build is timed always): two clock readings
/// cost as much as the rest of a making's own work, and a transient made in a loop is made
/// thousands of times.
struct TransientStats: Sendable {
  static let sampleLimit = 1_024
  /// Past the first ``sampleLimit`` timed makings, a making at once is timed one in this many.
  static let timingStride = 64
  /// Every making.
  var count = 0
  /// The makings timed: `total`, `max` and the samples are theirs.
  var timed = 0
  var total: UInt64 = 0
  var max: UInt64 = 0
  var samples: [UInt64] = []

  /// Adds one timed making that took `duration`.
  mutating func add(_ duration: UInt64) {
    count += 1
    timed += 1
    total &+= duration
    max = Swift.max(max, duration)
    if samples.count < Self.sampleLimit { samples.append(duration) }
  }

  /// Whether the first ``sampleLimit`` makings are all timed: past them, makings at once are
  /// timed one in ``timingStride`` (``TransientTally/countUntimed()``).
  var isSampled: Bool { timed >= Self.sampleLimit }
}

/// A transient node's ``TransientStats``, behind a lock of their own: threads making
/// different services do not wait for each other, and a report reads totals and samples that
/// agree. Made with the node when recording is on (``Recorder/tally(for:)``), so that a
/// making finds it without a look-up.
///
/// Past the first ``TransientStats/sampleLimit`` timed makings, a making at once takes a
/// ticket from an atomic counter instead of the lock: one in
/// ``TransientStats/timingStride`` is timed (and counted under the lock), the others are
/// counted by their tickets alone. The lock then stays off the path of a transient made in a
/// loop.
final class TransientTally: Sendable {
  private let stats = Locked(TransientStats())
  /// The tickets taken past the sample, in the low bits, and ``sampledBit``, set once the
  /// first ``TransientStats/sampleLimit`` makings are timed.
  private let tickets = AtomicWord()
  private static let sampledBit: UInt64 = 1 << 63

  /// Adds one timed making that took `duration`.
  func add(_ duration: UInt64) {
    let sampled = stats.withLock { stats in
      stats.add(duration)
      return stats.isSampled
    }
    // Set once the sample is complete: later makings at once take tickets.
    if sampled && tickets.loadRelaxed() & Self.sampledBit == 0 {
      tickets.setBits(Self.sampledBit)
    }
  }

  /// Counts a making at once that is not to be timed and returns `true`, or returns `false`
  /// for one to be timed (then counted by ``add(_:)``): each of the first
  /// ``TransientStats/sampleLimit``, then one in ``TransientStats/timingStride``.
  @inline(__always)
  func countUntimed() -> Bool {
    guard tickets.loadAcquire() & Self.sampledBit != 0 else { return false }
    let ticket = (tickets.fetchAddRelaxed(1) & ~Self.sampledBit) + 1
    return ticket % UInt64(TransientStats.timingStride) != 0
  }

  /// The makings so far: those under the lock, and the untimed ones of the tickets.
  var current: TransientStats {
    var stats = stats.withLock { $0 }
    let taken = Int(truncatingIfNeeded: tickets.loadRelaxed() & ~Self.sampledBit)
    stats.count += taken - taken / TransientStats.timingStride
    return stats
  }
}

/// A transient service and its tally.
struct TransientEntry: Sendable {
  let service: AnyServiceKey
  let tally: TransientTally
}

/// Records kept for a report, at most ``firstLimit`` plus ``latestLimit`` of them: the first
/// ones (a launch's, what a report is about) and the latest ones (a ring), the others counted
/// as dropped. A long-running app that resets a scope or rebuilds a weak service again and
/// again (a session at each sign-in, a document window at each open) records a build each
/// time: its memory stays flat.
struct KeptRecords<Record> {
  /// The records kept from the first one on.
  static var firstLimit: Int { 4_096 }
  /// The latest records kept once the first ones are.
  static var latestLimit: Int { 1_024 }

  private var first: [Record] = []
  private var latest: [Record] = []
  /// Where in `latest` the next record goes once it is full: its oldest.
  private var next = 0
  /// How many records were dropped.
  private(set) var dropped = 0

  /// Keeps the record `make` makes among the first ones if there is room, and returns `true`;
  /// returns `false`, without calling `make`, once they are full.
  @inline(__always)
  mutating func keepAmongFirst(_ make: () -> Record, reserving capacity: Int) -> Bool {
    guard first.count < Self.firstLimit else { return false }
    if first.capacity == 0 { first.reserveCapacity(capacity) }
    first.append(make())
    return true
  }

  /// Keeps `record` among the latest ones, the first ones being full; returns the one it drops
  /// once they are full too, to be released by the caller after it has released the lock it
  /// holds (a record keeps its node, whose release may free the app's captures).
  mutating func keepAmongLatest(_ record: Record) -> Record? {
    if latest.count < Self.latestLimit {
      latest.append(record)
      return nil
    }
    dropped += 1
    let old = latest[next]
    latest[next] = record
    next = next + 1 == Self.latestLimit ? 0 : next + 1
    return old
  }

  /// Keeps `record`; returns the one it drops (see ``keepAmongLatest(_:)``).
  mutating func append(_ record: Record, reserving capacity: Int) -> Record? {
    keepAmongFirst({ record }, reserving: capacity) ? nil : keepAmongLatest(record)
  }

  /// The records kept, oldest first.
  var all: [Record] { first + latest[next...] + latest[..<next] }

  /// How many are kept.
  var count: Int { first.count + latest.count }
}

extension KeptRecords: Sendable where Record: Sendable {}

/// Every build a container recorded, in the order their records were appended, under a lock:
/// a report sees every record whose append ended before it was asked. Bounded
/// (``KeptRecords``): the first builds and the latest, the others counted.
struct BuildLog: Sendable {
  /// Room the first append makes: a launch records hundreds of builds.
  static let initialCapacity = 256
  private let records = Locked(KeptRecords<RawBuild>())

  /// Appends the record `make` makes: made in place in the log, under the lock, so that it is
  /// neither copied nor moved on the way.
  @inline(__always)
  func append(_ make: () -> RawBuild) {
    if records.withLock({ $0.keepAmongFirst(make, reserving: Self.initialCapacity) }) { return }
    appendAmongLatest(make())
  }

  /// ``append(_:)`` once the first records are kept: the dropped record is released here,
  /// outside the lock.
  @inline(never)
  private func appendAmongLatest(_ record: RawBuild) {
    let dropped = records.withLock { $0.keepAmongLatest(record) }
    _ = dropped
  }

  /// Every record kept so far, oldest first.
  var all: [RawBuild] { records.withLock { $0.all } }

  /// How many records are kept, and how many were dropped.
  var counts: (kept: Int, dropped: Int) { records.withLock { ($0.count, $0.dropped) } }
}

/// Captures every build and wait of a container, at the cost of two clock readings and one
/// append under a lock per build (and two thread CPU time readings with
/// ``Recording/timingsAndCPU``).
final class Recorder: Sendable {
  let recording: Recording
  let clock: any LaunchClock
  /// Whether `clock` is the system's monotonic clock, known at init: the build paths then read
  /// it directly, not through the existential's witness (two readings a build).
  private let isMonotonic: Bool
  private let builds = BuildLog()
  private let waits = Locked(KeptRecords<RawWait>())
  /// The transient services registered while recording, each with its tally.
  private let transients = Locked<[TransientEntry]>([])
  /// The services handed out to the app before the first frame, noted once, when it is drawn.
  private let firstFrameUses = Locked<[AnyNode]>([])
  /// The launch observers and the hazards added from outside (``Container/observeLaunch(_:)``).
  let observation = LaunchObservers()

  init(_ recording: Recording, clock: any LaunchClock) {
    self.recording = recording
    self.clock = clock
    isMonotonic = clock is MonotonicClock
  }

  var isEnabled: Bool { recording != .off }

  /// The time on the recorder's clock.
  @inline(__always)
  func now() -> UInt64 {
    isMonotonic ? MonotonicClock.monotonicNow() : clock.now()
  }

  /// A tally for the makings of the transient `service`, listed for the reports; `nil` when
  /// recording is off. Called once per transient registration, when its node is made.
  func tally(for service: AnyServiceKey) -> TransientTally? {
    guard isEnabled else { return nil }
    let tally = TransientTally()
    transients.withLock { $0.append(TransientEntry(service: service, tally: tally)) }
    return tally
  }

  /// Marks the start of a build of the singleton `node` on `context`, of the generation it
  /// claimed.
  @inline(__always)
  func begin(_ context: BuildContext, building node: AnyNode, generation: Int) -> Span? {
    guard isEnabled else { return nil }
    // An async build may end on another thread than it began on: no thread's CPU time counts it.
    let cpu =
      recording == .timingsAndCPU && context.threadIndex != ThreadNames.taskIndex
      ? clock.threadCPUTime() : nil
    let signpost = Signposts.beginBuild(of: node)
    if observation.isObserved { tellBegan(node, context) }
    return Span(
      start: now(), nestedBase: context.nestedTotal, cpu: cpu, signpost: signpost,
      generation: generation)
  }

  /// Tells the launch observers that a build of `node` began.
  @inline(never)
  private func tellBegan(_ node: AnyNode, _ context: BuildContext) {
    observation.tell(
      .buildBegan(service: node.key.description, priority: Self.priority(of: node, in: context)))
  }

  /// Tells the launch observers that a build of `node` ended with `outcome`.
  @inline(never)
  private func tellEnded(_ node: AnyNode, _ context: BuildContext, _ outcome: BuildRecord.Outcome) {
    observation.tell(
      .buildEnded(
        service: node.key.description, priority: Self.priority(of: node, in: context),
        outcome: outcome))
  }

  /// Marks the start of a transient's making on `context`.
  @inline(__always)
  func beginMaking(_ context: BuildContext) -> Span? {
    guard isEnabled else { return nil }
    return Span(start: now(), nestedBase: context.nestedTotal, cpu: nil, signpost: nil)
  }

  /// Records the end of a transient build begun with `span`, into its service's totals.
  func endTransient(_ span: Span?, _ node: AnyNode, _ context: BuildContext) {
    guard let span else { return }
    let duration = now() &- span.start
    _ = context.endNested(since: span.nestedBase, inclusive: duration)
    madeTransient(node, taking: duration)
  }

  /// Records one making of the transient `node` that took `duration`, into its service's
  /// totals.
  func madeTransient(_ node: AnyNode, taking duration: UInt64) {
    node.transientTally?.add(duration)
  }

  /// Forgets a build begun with `span` that never ran its factory (a dependency failed): its
  /// time is not a build's.
  func discard(_ span: Span?, _ node: AnyNode, _ context: BuildContext) {
    guard let span else { return }
    Signposts.endBuild(span.signpost)
    context.dropNested(since: span.nestedBase)
    if observation.isObserved { tellEnded(node, context, .failed) }
  }

  /// Records the end of the build begun with `span`, which ended with `outcome` (built, or
  /// failed). With recording off (no span) it costs one test where it is inlined.
  @inline(__always)
  func end(
    _ span: Span?, _ node: AnyNode, _ context: BuildContext, attempt: Int,
    outcome: RawBuild.Outcome
  ) {
    guard let span else { return }
    record(span, node, context, attempt: attempt, outcome: outcome)
  }

  /// ``end(_:_:_:attempt:outcome:)`` once a span is known: one call that reads the clock,
  /// settles the nested time, and appends the record.
  @inline(never)
  private func record(
    _ span: Span, _ node: AnyNode, _ context: BuildContext, attempt: Int,
    outcome: RawBuild.Outcome
  ) {
    let end = now()
    Signposts.endBuild(span.signpost)
    let cpu = span.cpu.flatMap { start in clock.threadCPUTime().map { $0 &- start } }
    let nested = context.endNested(since: span.nestedBase, inclusive: end &- span.start)
    let isScheduledRoot = context.isScheduled(node)
    // Recorded: the scheduled job has nothing left to record for its root if it fails.
    if isScheduledRoot { context.scheduled = nil }
    let priority = Self.priority(of: node, in: context)
    let (trigger, thread) = (context.trigger, context.threadIndex)
    let qos = isScheduledRoot ? context.qos : nil
    let queued = isScheduledRoot ? context.readyAt.map { span.start &- $0 } : nil
    builds.append {
      // The chain ends with this service; the one before it is what needed it (read where
      // the record is made, not copied on the way).
      RawBuild(
        node: node, priority: priority, trigger: trigger, requestedBy: context.requester,
        threadIndex: thread, qos: qos, queued: queued, start: span.start, end: end,
        nested: nested, cpu: cpu, outcome: outcome,
        attempt: attempt, generation: span.generation)
    }
    if observation.isObserved {
      let ended: BuildRecord.Outcome
      switch outcome {
      case .built: ended = .built
      case .failed: ended = .failed
      case .cancelled: ended = .cancelled
      }
      tellEnded(node, context, ended)
    }
  }

  /// Records that the scheduled build of `node`, started at `start` on `context`, failed before
  /// its own factory ended: what it needed failed, or waiting for it would have closed a cycle
  /// across threads. A scheduled build has no caller to throw to: the report is where its
  /// failure shows, so that every scheduled service is accounted for once the app is fully
  /// ready. Its time went to what it needed, none of it its own; attempt 0, as it claimed none.
  func scheduledFailure(
    _ node: AnyNode, _ context: BuildContext, since start: UInt64, _ error: DeferredError
  ) {
    guard isEnabled else { return }
    let end = now()
    let duration = end &- start
    context.addNested(duration)
    builds.append {
      RawBuild(
        node: node, priority: Self.priority(of: node, in: context), trigger: .scheduled,
        requestedBy: nil, threadIndex: context.threadIndex, qos: context.qos,
        queued: context.readyAt.map { start &- $0 }, start: start, end: end, nested: duration,
        cpu: nil, outcome: .failed(error), attempt: 0)
    }
  }

  /// The priority a build of `node` on `context` records: the launch flags are read only for a
  /// priority that depends on them (reading the set retains it).
  @inline(__always)
  private static func priority(of node: AnyNode, in context: BuildContext) -> Priority {
    guard case .when = node.priority.kind else { return node.priority }
    return node.priority.resolved(in: context.flags)
  }

  /// Records a build that never started (cancelled by a shutdown).
  func cancelled(_ node: AnyNode, priority: Priority) {
    guard isEnabled else { return }
    let now = now()
    builds.append {
      RawBuild(
        node: node, priority: priority, trigger: .scheduled, requestedBy: nil,
        threadIndex: ThreadNames.noneIndex, qos: priority.qos, queued: nil,
        start: now, end: now, nested: 0, cpu: nil, outcome: .cancelled, attempt: 0)
    }
  }

  /// Records that `context` waited from `start` until now for a build of `node`. The wait
  /// counts as nested time of the build `context` is running, if any: it is part of that
  /// build's inclusive time, not of its self time.
  func waited(for node: AnyNode, attempt: Int, by context: BuildContext, since start: UInt64) {
    guard isEnabled else { return }
    let end = now()
    context.addNested(end &- start)
    let wait = RawWait(
      node: node, attempt: attempt, waiter: context.thread, waiterService: context.chain.last,
      start: start, end: end)
    let dropped = waits.withLock { $0.append(wait, reserving: 16) }
    // Released here, outside the lock.
    _ = dropped
  }

  /// Notes which of `nodes` the app has been handed by the first frame: one pass over the
  /// registrations when the first frame is drawn, nothing on the resolve path.
  func noteFirstFrame(_ nodes: [AnyNode]) {
    guard isEnabled else { return }
    let used = nodes.filter { $0.wasResolved.isSet }
    firstFrameUses.withLock { $0 = used }
  }

  /// What was recorded so far: the builds in the order they were appended, the waits, each
  /// transient service made at least once with its makings, and the services handed out by
  /// the first frame.
  var snapshot:
    (
      builds: [RawBuild], waits: [RawWait],
      transients: [(service: AnyServiceKey, stats: TransientStats)], firstFrameUses: [AnyNode],
      dropped: Int
    )
  {
    (
      builds.all, waits.withLock { $0.all },
      transients.withLock { $0 }.compactMap { entry in
        let stats = entry.tally.current
        return stats.count == 0 ? nil : (entry.service, stats)
      },
      firstFrameUses.withLock { $0 },
      builds.counts.dropped + waits.withLock { $0.dropped }
    )
  }

  /// How many build records and waits are kept, and how many were dropped.
  var kept: (builds: Int, waits: Int, dropped: Int) {
    let builds = builds.counts
    let waits = waits.withLock { ($0.count, $0.dropped) }
    return (builds.kept, waits.0, builds.dropped + waits.1)
  }
}

/// Builds and milestones as signpost intervals and events in the Points of Interest category,
/// which Instruments shows beside the app's own start-up activities, as Apple's guidance for
/// launch work asks. Emitted only while recording is on, and only while an instrument listens:
/// with none, a build costs one test of the signposter, and neither the key's description nor
/// a signpost ID is made.
///
/// The Apple path is not compiled on Linux, which has no `os` module: there, nothing listens,
/// and the recorder is what the tests read. What decides whether anything is made is
/// ``begin(on:named:)`` and ``emit(on:named:)``, which tests drive with an instrument of their
/// own.
enum Signposts {
  #if canImport(os)
    /// Instruments' Points of Interest, through `OSSignposter`.
    struct PointsOfInterest: SignpostInstrument {
      let signposter = OSSignposter(subsystem: "Deferred", category: .pointsOfInterest)

      /// Whether an instrument records the signposter's signposts now.
      var isEnabled: Bool { signposter.isEnabled }

      func beginInterval(named name: String) -> OSSignpostIntervalState {
        signposter.beginInterval(
          "Build", id: signposter.makeSignpostID(), "\(name, privacy: .public)")
      }

      func endInterval(_ interval: OSSignpostIntervalState) {
        signposter.endInterval("Build", interval)
      }

      func event(named name: String) {
        signposter.emitEvent("Milestone", "\(name, privacy: .public)")
      }
    }
  #else
    /// No signposts on this platform: nothing ever listens.
    struct PointsOfInterest: SignpostInstrument {
      /// No interval.
      struct Nothing {}
      var isEnabled: Bool { false }
      func beginInterval(named name: String) -> Nothing { Nothing() }
      func endInterval(_ interval: Nothing) {}
      func event(named name: String) {}
    }
  #endif

  private static let instrument = PointsOfInterest()

  /// A build's interval under way, if an instrument listened when it began.
  typealias Interval = PointsOfInterest.Interval?

  /// Begins the interval of a build of `node`; its key's description is made only if an
  /// instrument listens.
  @inline(__always)
  static func beginBuild(of node: AnyNode) -> Interval {
    begin(on: instrument) { node.key.description }
  }

  /// Ends a build's interval.
  static func endBuild(_ interval: Interval) {
    guard let interval else { return }
    instrument.endInterval(interval)
  }

  /// Marks a launch milestone.
  static func milestone(_ kind: Milestone.Kind) {
    emit(on: instrument) { kind.rawValue }
  }

  /// Begins an interval on `instrument` named `name()`, if it listens; `name` is called only
  /// then.
  @inline(__always)
  static func begin<Instrument: SignpostInstrument>(
    on instrument: Instrument, named name: () -> String
  ) -> Instrument.Interval? {
    guard instrument.isEnabled else { return nil }
    return instrument.beginInterval(named: name())
  }

  /// Emits an event on `instrument` named `name()`, if it listens; `name` is called only then.
  @inline(__always)
  static func emit<Instrument: SignpostInstrument>(
    on instrument: Instrument, named name: () -> String
  ) {
    guard instrument.isEnabled else { return }
    instrument.event(named: name())
  }
}

/// What signposts are emitted to: Instruments' Points of Interest on Apple platforms, or a
/// test's stand-in.
protocol SignpostInstrument: Sendable {
  /// An interval under way.
  associatedtype Interval
  /// Whether anything records signposts now: when not, nothing is made for one.
  var isEnabled: Bool { get }
  /// Begins an interval named `name`.
  func beginInterval(named name: String) -> Interval
  /// Ends an interval.
  func endInterval(_ interval: Interval)
  /// Emits an event named `name`.
  func event(named name: String)
}

/// Who a thread is, as reports and errors name it. Read once per thread, when its build
/// context is made, never on the resolve path.
struct ThreadInfo: Sendable, Hashable {
  /// Whether this is the process's main thread.
  let isMain: Bool
  /// A readable name: `main`, or the thread's own name and number.
  let name: String

  /// An async build, which may hop threads.
  static let task = ThreadInfo(isMain: false, name: "task")
  /// No thread: a build that never started (cancelled by a shutdown).
  static let noThread = ThreadInfo(isMain: false, name: "none")
  /// Any thread once ``ThreadNames`` holds its limit.
  static let otherThread = ThreadInfo(isMain: false, name: "another thread")

  static func current() -> ThreadInfo {
    #if canImport(Darwin)
      let isMain = pthread_main_np() != 0
      guard !isMain else { return ThreadInfo(isMain: true, name: "main") }
      var buffer = [CChar](repeating: 0, count: 64)
      pthread_getname_np(pthread_self(), &buffer, buffer.count)
      let own = String(
        decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      var tid: UInt64 = 0
      pthread_threadid_np(nil, &tid)
      return ThreadInfo(isMain: false, name: label(own, Int(tid)))
    #else
      let tid = linuxThreadID()
      let isMain = tid != 0 && tid == Int(getpid())
      guard !isMain else { return ThreadInfo(isMain: true, name: "main") }
      return ThreadInfo(isMain: false, name: label(linuxThreadName(), tid))
    #endif
  }

  private static func label(_ own: String, _ tid: Int) -> String {
    let trimmed = own.split(whereSeparator: { $0 == "\n" || $0 == "\0" }).first.map(String.init)
    guard let trimmed, !trimmed.isEmpty else { return "thread \(tid)" }
    return "\(trimmed) (\(tid))"
  }

  #if !canImport(Darwin)
    /// The calling thread's kernel id (the main thread's is the process id), or 0.
    ///
    /// The C library module does not bring `gettid` into Swift, and `syscall` is variadic, so
    /// the id is read from the thread's CPU-time clock instead: Linux makes a thread's clock id
    /// from its id as `~tid << 3 | 6` (a per-thread scheduler clock), the encoding the C
    /// libraries use too. No system call: the main thread's first build pays nothing here.
    private static func linuxThreadID() -> Int {
      var clock = clockid_t()
      guard pthread_getcpuclockid(pthread_self(), &clock) == 0, clock & 7 == 6 else { return 0 }
      return Int(~(clock >> 3))
    }

    /// The calling thread's own name, or "" (`pthread_getname_np` is not brought into Swift
    /// either): read from the kernel's file for it, once per thread other than the main one.
    private static func linuxThreadName() -> String {
      let file = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
      guard file >= 0 else { return "" }
      defer { close(file) }
      var bytes = [UInt8](repeating: 0, count: 32)
      let count = read(file, &bytes, bytes.count)
      return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
    }
  #endif
}

/// The threads that ran builds, interned: a build record keeps its thread as a four-byte index
/// (nothing retained per build), and a report reads it back. A build context takes its
/// thread's index once, when it is made; an entry is kept for the life of the process, one per
/// thread that ever built something (a few, in an app). A process that starts thread after
/// thread (Dispatch lets idle workers go, and makes new ones) keeps at most ``limit``: a
/// thread beyond them is named ``ThreadInfo/otherThread`` in reports.
enum ThreadNames {
  /// The most threads named.
  static let limit = 1_024
  private static let table = InternTable(
    [ThreadInfo.task, ThreadInfo.noThread, ThreadInfo.otherThread], limit: limit,
    overflow: otherIndex)
  /// The index of ``ThreadInfo/task`` (an async build's).
  static let taskIndex: UInt32 = 0
  /// The index of ``ThreadInfo/noThread`` (a build that never started).
  static let noneIndex: UInt32 = 1
  /// The index of ``ThreadInfo/otherThread`` (a thread beyond the first ``limit``).
  static let otherIndex: UInt32 = 2

  /// The index of `thread`, taken once per distinct thread (an async build's without a lock:
  /// one is made for each async resolve).
  static func index(of thread: ThreadInfo) -> UInt32 {
    if !thread.isMain && thread.name == "task" { return taskIndex }
    return table.index(of: thread)
  }

  /// The thread of `index`.
  static func thread(at index: UInt32) -> ThreadInfo { table.value(at: index) }
}

// MARK: - Observers

/// A container's launch observers and the hazards added from outside: one atomic load a build
/// while nothing observes.
final class LaunchObservers: Sendable {
  private struct Observer: Sendable {
    let id: Int
    let call: @Sendable (LaunchEvent) -> Void
  }

  private struct State: Sendable {
    var lastID = 0
    var observers: [Observer] = []
  }

  private let state = Locked(State())
  /// 1 while an observer is added: read without the lock on every build.
  private let observed = AtomicWord()
  private let added = Locked<[Hazard]>([])

  init() {}

  /// Whether an observer is added.
  @inline(__always)
  var isObserved: Bool { observed.loadAcquire() != 0 }

  /// Adds `observer` after the others; returns its identifier.
  func add(_ observer: @escaping @Sendable (LaunchEvent) -> Void) -> Int {
    state.withLock { state in
      state.lastID += 1
      state.observers.append(Observer(id: state.lastID, call: observer))
      // Stored under the lock, so that concurrent adds and removes leave it matching the list.
      observed.storeRelease(1)
      return state.lastID
    }
  }

  /// Removes the observer `id`, if it is still there.
  func remove(_ id: Int) {
    state.withLock { state in
      state.observers.removeAll { $0.id == id }
      observed.storeRelease(state.observers.isEmpty ? 0 : 1)
    }
  }

  /// Tells every observer, in the order they were added, of the event `event` makes (made only
  /// when there is one); they are called after the lock is released.
  func tell(_ event: @autoclosure () -> LaunchEvent) {
    guard isObserved else { return }
    let observers = state.withLock { $0.observers }
    guard !observers.isEmpty else { return }
    let event = event()
    for observer in observers { observer.call(event) }
  }

  func add(_ hazard: Hazard) {
    added.withLock { $0.append(hazard) }
  }

  /// The hazards added from outside, in the order they were added.
  var hazards: [Hazard] { added.withLock { $0 } }
}
