/// How a build came about.
enum Trigger: String, Sendable {
  /// Built by ``Container/launch(_:)``.
  case launch
  /// Built by a deferred job after the first frame.
  case scheduled
  /// Built because something resolved it.
  case onDemand
}

/// One build as captured: keys and clock readings only. Names are made when a report is made,
/// never while the app launches.
struct RawBuild {
  indirect enum Outcome {
    case built
    case failed(DeferredError)
    case cancelled
  }

  let node: AnyNode
  let priority: Priority
  let trigger: Trigger
  let requestedBy: AnyServiceKey?
  let thread: ThreadInfo
  let qos: QualityOfService?
  let queued: UInt64?
  let start: UInt64
  let end: UInt64
  let nested: UInt64
  let cpu: UInt64?
  let outcome: Outcome
  let attempt: Int
}

/// One wait for another context's build.
struct RawWait {
  let node: AnyNode
  let attempt: Int
  let waiter: ThreadInfo
  let waiterService: AnyServiceKey?
  let start: UInt64
  let end: UInt64
}

/// What a build context notes while one of its builds runs.
struct Span {
  let start: UInt64
  let cpu: UInt64?
}

/// A transient service's builds, together: counts and totals, and the first
/// ``TransientStats/sampleLimit`` durations for the median.
struct TransientStats {
  static let sampleLimit = 1_024
  let node: AnyNode
  var count = 0
  var total: UInt64 = 0
  var max: UInt64 = 0
  var samples: [UInt64] = []

  mutating func add(_ duration: UInt64) {
    count += 1
    total &+= duration
    max = Swift.max(max, duration)
    if samples.count < Self.sampleLimit { samples.append(duration) }
  }
}

/// Captures every build and wait of a container, at the cost of two clock readings and one
/// append under a lock per build (and two thread CPU time readings with
/// ``Recording/timingsAndCPU``).
final class Recorder: Sendable {
  let recording: Recording
  let clock: any LaunchClock
  /// Builds, in logs picked by the build context: threads building at once append to
  /// different logs, and do not contend for one lock.
  private let builds = (0..<8).map { _ in Locked(ChunkedLog<RawBuild>()) }
  private let waits = Locked<[RawWait]>([])
  private let transients = Locked<[ObjectIdentifier: TransientStats]>([:])

  init(_ recording: Recording, clock: any LaunchClock) {
    self.recording = recording
    self.clock = clock
  }

  var isEnabled: Bool { recording != .off }

  @inline(__always)
  private func log(for context: BuildContext) -> Locked<ChunkedLog<RawBuild>> {
    builds[Int((UInt(bitPattern: ObjectIdentifier(context)) >> 4) & UInt(builds.count - 1))]
  }

  /// Marks the start of a build on `context`.
  @inline(__always)
  func begin(_ context: BuildContext, transient: Bool = false) -> Span? {
    guard isEnabled else { return nil }
    context.nested.append(0)
    // An async build may end on another thread than it began on: no thread's CPU time counts it.
    let cpu =
      recording == .timingsAndCPU && !transient && context.thread != .task
      ? clock.threadCPUTime() : nil
    return Span(start: clock.now(), cpu: cpu)
  }

  /// Records the end of a transient build begun with `span`, into its service's totals.
  func endTransient(_ span: Span?, _ node: AnyNode, _ context: BuildContext) {
    guard let span else { return }
    let duration = clock.now() &- span.start
    _ = context.nested.popLast()
    if !context.nested.isEmpty { context.nested[context.nested.count - 1] &+= duration }
    // Updated in place: a copy taken out of the dictionary would copy its samples on append.
    transients.withLock {
      $0[ObjectIdentifier(node), default: TransientStats(node: node)].add(duration)
    }
  }

  /// Records the end of the build begun with `span`.
  func end(
    _ span: Span?, _ node: AnyNode, _ context: BuildContext, attempt: Int,
    outcome: RawBuild.Outcome
  ) {
    guard let span else { return }
    let end = clock.now()
    let cpu = span.cpu.flatMap { start in clock.threadCPUTime().map { $0 &- start } }
    let nested = context.nested.popLast() ?? 0
    let inclusive = end &- span.start
    if !context.nested.isEmpty { context.nested[context.nested.count - 1] &+= inclusive }
    // The chain ends with this service; the one before it is what needed it.
    let requestedBy = context.chain.count > 1 ? context.chain[context.chain.count - 2] : nil
    let isScheduledRoot = context.scheduled === node
    // Moved into the log, not copied: a copy would retain and release each of its references.
    var record = Optional(
      RawBuild(
        node: node, priority: node.priority.resolved(in: context.flags),
        trigger: context.trigger, requestedBy: requestedBy, thread: context.thread,
        qos: isScheduledRoot ? context.qos : nil,
        queued: isScheduledRoot ? context.readyAt.map { span.start &- $0 } : nil,
        start: span.start, end: end, nested: nested, cpu: cpu, outcome: outcome,
        attempt: attempt))
    log(for: context).withLock { $0.append(record.take()!) }
  }

  /// Records a build that never started (cancelled by a shutdown).
  func cancelled(_ node: AnyNode, priority: Priority) {
    guard isEnabled else { return }
    let now = clock.now()
    let record = RawBuild(
      node: node, priority: priority, trigger: .scheduled, requestedBy: nil,
      thread: ThreadInfo(isMain: false, name: "none"), qos: priority.qos, queued: nil,
      start: now, end: now, nested: 0, cpu: nil, outcome: .cancelled, attempt: 0)
    builds[0].withLock { $0.append(record) }
  }

  /// Records that `context` waited from `start` until now for a build of `node`.
  func waited(for node: AnyNode, attempt: Int, by context: BuildContext, since start: UInt64) {
    guard isEnabled else { return }
    let wait = RawWait(
      node: node, attempt: attempt, waiter: context.thread, waiterService: context.chain.last,
      start: start, end: clock.now())
    waits.withLock { $0.append(wait) }
  }

  var snapshot: (builds: [RawBuild], waits: [RawWait], transients: [TransientStats]) {
    (
      builds.flatMap { $0.withLock { $0.all } }, waits.withLock { $0 },
      transients.withLock { Array($0.values) }
    )
  }
}

/// An append-only log in fixed-size chunks: appending never moves what is already logged, so a
/// launch of thousands of builds pays for no array growth while it runs.
struct ChunkedLog<Element> {
  private static var chunkSize: Int { 256 }
  private var chunks: [[Element]] = []

  mutating func append(_ element: consuming Element) {
    if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
      chunks.append([])
      chunks[chunks.count - 1].reserveCapacity(Self.chunkSize)
    }
    chunks[chunks.count - 1].append(element)
  }

  /// Everything logged, oldest first.
  var all: [Element] { Array(chunks.joined()) }
}
