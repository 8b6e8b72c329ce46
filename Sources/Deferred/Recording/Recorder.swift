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

/// One build as captured: keys and clock readings only; names are made by a report. Kept small
/// (Benchmarks/README.md, "Why the core is shaped as it is").
struct RawBuild: Sendable {
  enum Outcome: Sendable {
    case built
    case failed(DeferredError)
    case cancelled
  }

  /// A time not taken: `queued` of a build not scheduled, `cpu` without thread CPU time.
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

  /// A record of a build on `thread` (the build paths pass their context's index instead).
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

  var requestedBy: AnyServiceKey? {
    requesterType.map { AnyServiceKey($0, name: requesterName) }
  }
  var thread: ThreadInfo { ThreadNames.thread(at: threadIndex) }
  /// For a scheduled build: how long it waited in its queue.
  var queued: UInt64? { queuedOrNone == Self.none ? nil : queuedOrNone }
  /// The thread CPU time the build took, where the clock measures it.
  var cpu: UInt64? { cpuOrNone == Self.none ? nil : cpuOrNone }
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

/// What a build context notes while one of its builds runs; the walk keeps one a frame.
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

  var generation: Int { Int(generation32) }

  /// The thread CPU time at the start, where the build's CPU time is measured.
  var cpu: UInt64? { cpuOrNone == RawBuild.none ? nil : cpuOrNone }
}

/// A transient service's makings: counts, totals, and the first ``sampleLimit`` durations for
/// the median. Every making is counted; past the first ``sampleLimit``, a making at once is
/// timed one in ``timingStride`` (one inside a build always is).
struct TransientStats: Sendable {
  static let sampleLimit = 1_024
  /// Past the first ``sampleLimit`` timed makings, a making at once is timed one in this many.
  static let timingStride = 64
  var count = 0
  /// The makings timed: `total`, `max` and the samples are theirs.
  var timed = 0
  var total: UInt64 = 0
  var max: UInt64 = 0
  var samples: [UInt64] = []

  mutating func add(_ duration: UInt64) {
    count += 1
    timed += 1
    total &+= duration
    max = Swift.max(max, duration)
    if samples.count < Self.sampleLimit { samples.append(duration) }
  }

  /// Whether the first ``sampleLimit`` makings are timed.
  var isSampled: Bool { timed >= Self.sampleLimit }
}

/// A transient node's ``TransientStats`` behind a lock of their own, made with the node when
/// recording is on. Once the sample is complete, a making at once takes a ticket from an
/// atomic counter instead of the lock: one in ``TransientStats/timingStride`` is timed, the
/// others are counted by their tickets alone.
final class TransientTally: Sendable {
  private let stats = Locked(TransientStats())
  /// The tickets taken past the sample, and ``sampledBit`` once the sample is complete.
  private let tickets = AtomicWord()
  private static let sampledBit: UInt64 = 1 << 63

  /// Adds one timed making that took `duration`.
  func add(_ duration: UInt64) {
    let sampled = stats.withLock { stats in
      stats.add(duration)
      return stats.isSampled
    }
    if sampled && tickets.loadRelaxed() & Self.sampledBit == 0 {
      tickets.setBits(Self.sampledBit)
    }
  }

  /// Counts a making at once not to be timed and returns `true`; `false` for one to time
  /// (then counted by ``add(_:)``).
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

struct TransientEntry: Sendable {
  let service: AnyServiceKey
  let tally: TransientTally
}

/// Records kept for a report: the first ``firstLimit`` (a launch's) and the latest
/// ``latestLimit`` in a ring, the others counted as dropped, so that an app that rebuilds a
/// service again and again stays flat.
struct KeptRecords<Record> {
  static var firstLimit: Int { 4_096 }
  static var latestLimit: Int { 1_024 }

  private var first: [Record] = []
  private var latest: [Record] = []
  /// Where in `latest` the next record goes once it is full: its oldest.
  private var next = 0
  private(set) var dropped = 0

  /// Keeps `make()` among the first records and returns `true`, or `false` once they are full.
  @inline(__always)
  mutating func keepAmongFirst(_ make: () -> Record, reserving capacity: Int) -> Bool {
    guard first.count < Self.firstLimit else { return false }
    if first.capacity == 0 { first.reserveCapacity(capacity) }
    first.append(make())
    return true
  }

  /// Keeps `record` among the latest; returns the one it drops, for the caller to release
  /// outside its lock (a record keeps its node, whose release may run the app's code).
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

  var all: [Record] { first + latest[next...] + latest[..<next] }

  var count: Int { first.count + latest.count }
}

extension KeptRecords: Sendable where Record: Sendable {}

/// Every build a container recorded, in append order, under a lock; bounded (``KeptRecords``).
struct BuildLog: Sendable {
  /// Room the first append makes: a launch records hundreds of builds.
  static let initialCapacity = 256
  private let records = Locked(KeptRecords<RawBuild>())

  /// Appends `make()`, made in place under the lock.
  @inline(__always)
  func append(_ make: () -> RawBuild) {
    if records.withLock({ $0.keepAmongFirst(make, reserving: Self.initialCapacity) }) { return }
    appendAmongLatest(make())
  }

  /// ``append(_:)`` once the first records are full: the dropped record is released here,
  /// outside the lock.
  @inline(never)
  private func appendAmongLatest(_ record: RawBuild) {
    let dropped = records.withLock { $0.keepAmongLatest(record) }
    _ = dropped
  }

  var all: [RawBuild] { records.withLock { $0.all } }

  var counts: (kept: Int, dropped: Int) { records.withLock { ($0.count, $0.dropped) } }
}

/// Captures every build and wait of a container: two clock readings and one append a build.
final class Recorder: Sendable {
  let recording: Recording
  let clock: any LaunchClock
  /// Whether `clock` is the monotonic clock, which the build paths then read directly.
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

  @inline(__always)
  func now() -> UInt64 {
    isMonotonic ? MonotonicClock.monotonicNow() : clock.now()
  }

  /// A tally for the transient `service`, listed for the reports; `nil` when recording is off.
  func tally(for service: AnyServiceKey) -> TransientTally? {
    guard isEnabled else { return nil }
    let tally = TransientTally()
    transients.withLock { $0.append(TransientEntry(service: service, tally: tally)) }
    return tally
  }

  /// Marks the start of a build of the singleton `node`, of the generation it claimed.
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

  @inline(never)
  private func tellBegan(_ node: AnyNode, _ context: BuildContext) {
    observation.tell(
      .buildBegan(service: node.key.description, priority: Self.priority(of: node, in: context)))
  }

  @inline(never)
  private func tellEnded(_ node: AnyNode, _ context: BuildContext, _ outcome: BuildRecord.Outcome) {
    observation.tell(
      .buildEnded(
        service: node.key.description, priority: Self.priority(of: node, in: context),
        outcome: outcome))
  }

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

  /// Records one making of the transient `node` that took `duration`.
  func madeTransient(_ node: AnyNode, taking duration: UInt64) {
    node.transientTally?.add(duration)
  }

  /// Forgets a build begun with `span` that never ran its factory (a dependency failed).
  func discard(_ span: Span?, _ node: AnyNode, _ context: BuildContext) {
    guard let span else { return }
    Signposts.endBuild(span.signpost)
    context.dropNested(since: span.nestedBase)
    if observation.isObserved { tellEnded(node, context, .failed) }
  }

  /// Records the end of the build begun with `span`; with recording off, one test.
  @inline(__always)
  func end(
    _ span: Span?, _ node: AnyNode, _ context: BuildContext, attempt: Int,
    outcome: RawBuild.Outcome
  ) {
    guard let span else { return }
    record(span, node, context, attempt: attempt, outcome: outcome)
  }

  /// ``end(_:_:_:attempt:outcome:)`` once a span is known.
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

  /// Records that the scheduled build of `node`, started at `start`, failed before its own
  /// factory ended (what it needed failed, or a cycle across threads): it has no caller to
  /// throw to, so the report shows it. None of its time is its own; attempt 0.
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

  /// The priority a build of `node` records: the flags are read only for a `when` priority.
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

  /// Records that `context` waited from `start` until now for a build of `node`: nested time of
  /// the build `context` runs, if any (inclusive, not self time).
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

  /// Notes which of `nodes` the app has been handed by the first frame.
  func noteFirstFrame(_ nodes: [AnyNode]) {
    guard isEnabled else { return }
    let used = nodes.filter { $0.wasResolved.isSet }
    firstFrameUses.withLock { $0 = used }
  }

  /// What was recorded so far; transients made at least once.
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

  var kept: (builds: Int, waits: Int, dropped: Int) {
    let builds = builds.counts
    let waits = waits.withLock { ($0.count, $0.dropped) }
    return (builds.kept, waits.0, builds.dropped + waits.1)
  }
}

/// Builds and milestones as signposts in Instruments' Points of Interest, made only while
/// recording is on and an instrument listens. Linux has no `os` module: nothing listens there;
/// tests drive ``begin(on:named:)`` and ``emit(on:named:)`` with an instrument of their own.
enum Signposts {
  #if canImport(os)
    /// Instruments' Points of Interest, through `OSSignposter`.
    struct PointsOfInterest: SignpostInstrument {
      let signposter = OSSignposter(subsystem: "Deferred", category: .pointsOfInterest)

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

  static func endBuild(_ interval: Interval) {
    guard let interval else { return }
    instrument.endInterval(interval)
  }

  static func milestone(_ kind: Milestone.Kind) {
    emit(on: instrument) { kind.rawValue }
  }

  /// Begins an interval named `name()` on `instrument`, if it listens.
  @inline(__always)
  static func begin<Instrument: SignpostInstrument>(
    on instrument: Instrument, named name: () -> String
  ) -> Instrument.Interval? {
    guard instrument.isEnabled else { return nil }
    return instrument.beginInterval(named: name())
  }

  /// Emits an event named `name()` on `instrument`, if it listens.
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
  associatedtype Interval
  /// Whether anything records signposts now: when not, nothing is made for one.
  var isEnabled: Bool { get }
  func beginInterval(named name: String) -> Interval
  func endInterval(_ interval: Interval)
  func event(named name: String)
}

/// Who a thread is, as reports and errors name it; read once per thread.
struct ThreadInfo: Sendable, Hashable {
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
    /// The calling thread's kernel id (the main thread's is the process id), or 0. Swift has
    /// no `gettid`, so it is read from the thread's CPU-time clock id, `~tid << 3 | 6`.
    private static func linuxThreadID() -> Int {
      var clock = clockid_t()
      guard pthread_getcpuclockid(pthread_self(), &clock) == 0, clock & 7 == 6 else { return 0 }
      return Int(~(clock >> 3))
    }

    /// The calling thread's own name, or "", from the kernel (Swift has no
    /// `pthread_getname_np` here).
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

/// The threads that ran builds, interned for the life of the process: a build record keeps its
/// thread's index. At most ``limit``; a thread beyond them is ``ThreadInfo/otherThread``.
enum ThreadNames {
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

  static func thread(at index: UInt32) -> ThreadInfo { table.value(at: index) }
}

// MARK: - Observers

/// A container's launch observers and the hazards added from outside.
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

  @inline(__always)
  var isObserved: Bool { observed.loadAcquire() != 0 }

  func add(_ observer: @escaping @Sendable (LaunchEvent) -> Void) -> Int {
    state.withLock { state in
      state.lastID += 1
      state.observers.append(Observer(id: state.lastID, call: observer))
      // Stored under the lock, so that concurrent adds and removes leave it matching the list.
      observed.storeRelease(1)
      return state.lastID
    }
  }

  func remove(_ id: Int) {
    state.withLock { state in
      state.observers.removeAll { $0.id == id }
      observed.storeRelease(state.observers.isEmpty ? 0 : 1)
    }
  }

  /// Tells every observer, in the order added and outside the lock, of `event()` (made only if
  /// one is there).
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

  var hazards: [Hazard] { added.withLock { $0 } }
}
