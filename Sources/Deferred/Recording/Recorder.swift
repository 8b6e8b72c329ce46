/// How a build came about: the public ``BuildTrigger``, which the reports show.
typealias Trigger = BuildTrigger

/// One build as captured: keys and clock readings only. Names are made when a report is made,
/// never while the app launches.
///
/// Every build of a launch keeps one until the container goes, so it stays small: the
/// requesting service is its type and name (its key's hash is made again for a report), the
/// thread its index in ``ThreadNames`` (nothing retained), an absent time a sentinel, and
/// attempt and generation 32 bits each.
struct RawBuild: Sendable {
  /// How it ended: one word (the error is one reference), nothing allocated for it.
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
  let trigger: Trigger
  let qos: BuildQoS?

  /// A record of a build on the thread `thread` (interned here: the build paths pass their
  /// context's index instead).
  init(
    node: AnyNode, priority: Priority, trigger: Trigger, requestedBy: AnyServiceKey?,
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
    node: AnyNode, priority: Priority, trigger: Trigger, requestedBy: AnyServiceKey?,
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

/// A transient service and its tally. (A struct, not a tuple: the runtime makes a tuple's
/// metadata when it is first used, in every process.)
struct TransientEntry: Sendable {
  let service: AnyServiceKey
  let tally: TransientTally
}

/// Every build a container recorded, in the order their records were appended, under a lock:
/// a report sees every record whose append ended before it was asked.
struct BuildLog: Sendable {
  /// Room the first append makes: a launch records hundreds of builds, which would otherwise
  /// grow the array through a reallocation at every power of two.
  static let initialCapacity = 256
  private let records = Locked<[RawBuild]>([])

  /// Appends `record` (inlined into the recorder's one caller per build, which makes the
  /// record in place).
  @inline(__always)
  func append(_ record: consuming RawBuild) {
    // Moved into the array, not copied: a copy would retain and release its references.
    var pending = Optional(record)
    records.withLock { records in
      if records.capacity == 0 { records.reserveCapacity(Self.initialCapacity) }
      records.append(pending.take()!)
    }
  }

  /// Every record appended so far, oldest first.
  var all: [RawBuild] { records.withLock { $0 } }
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
  private let waits = Locked<[RawWait]>([])
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
    // The chain ends with this service; the one before it is what needed it.
    let requestedBy = context.requester
    let isScheduledRoot = context.isScheduled(node)
    // Recorded: the scheduled job has nothing left to record for its root if it fails.
    if isScheduledRoot { context.scheduled = nil }
    let priority = Self.priority(of: node, in: context)
    let (trigger, thread) = (context.trigger, context.threadIndex)
    let qos = isScheduledRoot ? context.qos : nil
    let queued = isScheduledRoot ? context.readyAt.map { span.start &- $0 } : nil
    builds.append(
      RawBuild(
        node: node, priority: priority, trigger: trigger, requestedBy: requestedBy,
        threadIndex: thread, qos: qos, queued: queued, start: span.start, end: end,
        nested: nested, cpu: cpu, outcome: outcome,
        attempt: attempt, generation: span.generation))
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
    builds.append(
      RawBuild(
        node: node, priority: Self.priority(of: node, in: context), trigger: .scheduled,
        requestedBy: nil, threadIndex: context.threadIndex, qos: context.qos,
        queued: context.readyAt.map { start &- $0 }, start: start, end: end, nested: duration,
        cpu: nil, outcome: .failed(error), attempt: 0))
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
    builds.append(
      RawBuild(
        node: node, priority: priority, trigger: .scheduled, requestedBy: nil,
        threadIndex: ThreadNames.noneIndex, qos: priority.qos, queued: nil,
        start: now, end: now, nested: 0, cpu: nil, outcome: .cancelled, attempt: 0))
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
    waits.withLock { $0.append(wait) }
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
      transients: [(service: AnyServiceKey, stats: TransientStats)], firstFrameUses: [AnyNode]
    )
  {
    (
      builds.all, waits.withLock { $0 },
      transients.withLock { $0 }.compactMap { entry in
        let stats = entry.tally.current
        return stats.count == 0 ? nil : (entry.service, stats)
      },
      firstFrameUses.withLock { $0 }
    )
  }
}
