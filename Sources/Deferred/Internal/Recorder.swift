import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How a build came about: the public ``BuildTrigger``, which the reports show.
typealias Trigger = BuildTrigger

/// One build as captured: keys and clock readings only. Names are made when a report is made,
/// never while the app launches.
///
/// Kept in its smallest form, 104 bytes (it was 176, then 112): every build of a launch keeps
/// one until the container goes. The requesting service is its type and name (its key's hash
/// is made again for a report), the thread its index in ``ThreadNames`` (four bytes, nothing
/// retained), absent times a sentinel, and attempt and generation 32 bits each; the one-byte
/// fields pack after the five-byte priority.
struct RawBuild {
  indirect enum Outcome {
    case built
    case failed(DeferredError)
    case cancelled
  }

  /// A time that was not taken: `queued` of a build that was not scheduled, `cpu` where the
  /// clock has no thread CPU time.
  private static let none = UInt64.max

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
  /// Its signpost interval (Apple platforms).
  let signpost: Signposts.Interval
  /// The generation the build makes (0 but for a weak or named-scope service, or one built
  /// with one, after a reset or a rebuild).
  var generation = 0
}

/// A transient service's builds, together: counts and totals, and the first
/// ``TransientStats/sampleLimit`` durations for the median.
struct TransientStats {
  static let sampleLimit = 1_024
  /// Past the first ``sampleLimit`` timed makings, a making at once is timed one in this many
  /// (the others are counted, not timed: two clock readings cost as much as the rest of the
  /// making's own work).
  static let timingStride = 64
  /// Every making.
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
}

/// A transient node's ``TransientStats``, reached from its node lock-free
/// (``AnyNode/transientTally``): counts and totals are atomics, and only the first
/// ``TransientStats/sampleLimit`` makings take the node's lock, to keep their durations.
/// Recording a transient takes no lock of the recorder's and looks nothing up.
///
/// Safety: `@unchecked Sendable` because its samples are touched only under its node's lock,
/// and everything else is atomic (Docs/Design.md, "Memory safety").
final class TransientTally: @unchecked Sendable {
  /// The makings timed.
  private let count = AtomicWord()
  /// The makings at once counted and not timed.
  private let untimed = AtomicWord()
  /// Which making at once is timed (one in ``TransientStats/timingStride``): a relaxed load and
  /// store, not a read-modify-write; a lost update changes only which making is timed.
  private let ticket = AtomicWord()
  private let total = AtomicWord()
  private let longest = AtomicWord()
  /// Guarded by the node's lock.
  private var samples: [UInt64] = []

  /// Adds one making of `node` that took `duration`.
  ///
  /// The first ``TransientStats/sampleLimit`` makings are counted under the node's lock with
  /// their sample, so that a report, which reads under the same lock, sees their count, total,
  /// longest and samples agree; later ones are counted without it.
  func add(_ duration: UInt64, of node: AnyNode) {
    if count.loadRelaxed() < TransientStats.sampleLimit {
      let sampled = node.withState { _ -> Bool in
        guard count.loadRelaxed() < TransientStats.sampleLimit else { return false }
        tally(duration)
        samples.append(duration)
        return true
      }
      if sampled { return }
    }
    tally(duration)
  }

  /// Counts a making at once that is not to be timed, and returns `true`; or returns `false`,
  /// counting nothing, for one to be timed (then counted by ``add(_:of:)``): each of the first
  /// ``TransientStats/sampleLimit``, then one in ``TransientStats/timingStride``.
  @inline(__always)
  func countUntimed() -> Bool {
    guard count.loadRelaxed() >= TransientStats.sampleLimit else { return false }
    let next = ticket.loadRelaxed() &+ 1
    ticket.storeRelaxed(next)
    if next % UInt64(TransientStats.timingStride) == 0 { return false }
    untimed.addRelaxed(1)
    return true
  }

  @inline(__always)
  private func tally(_ duration: UInt64) {
    count.addRelaxed(1)
    total.addRelaxed(duration)
    longest.raise(to: duration)
  }

  /// The makings so far, of `node`.
  func stats(of node: AnyNode) -> TransientStats {
    node.withState { _ in
      var stats = TransientStats()
      stats.timed = Int(count.loadRelaxed())
      stats.count = stats.timed + Int(untimed.loadRelaxed())
      stats.total = total.loadRelaxed()
      stats.max = longest.loadRelaxed()
      stats.samples = samples
      return stats
    }
  }
}

/// A transient node that was made at least once, and its tally. (A struct, not a tuple: the
/// runtime makes a tuple's metadata when it is first used, in every process.)
struct TransientEntry {
  let node: AnyNode
  let tally: TransientTally
}

/// Captures every build and wait of a container, at the cost of two clock readings and one
/// append that takes no lock per build (and two thread CPU time readings with
/// ``Recording/timingsAndCPU``).
final class Recorder: Sendable {
  let recording: Recording
  let clock: any LaunchClock
  /// Whether `clock` is the system's monotonic clock, known at init: the build paths then read
  /// it directly, not through the existential's witness (two readings a build).
  private let isMonotonic: Bool
  /// Builds, in lanes picked by the build context: threads building at once append to
  /// different lanes.
  private let builds = BuildLog()
  private let waits = Locked<[RawWait]>([])
  /// The transient nodes that were made at least once, each with its tally: appended to once
  /// per node, on its first making.
  private let transients = Locked<[TransientEntry]>([])
  /// The services handed out to the app before the first frame, noted once, when it is drawn.
  private let firstFrameUses = Locked<[AnyNode]>([])

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

  @inline(__always)
  private func lane(for context: BuildContext) -> Int {
    Int(truncatingIfNeeded: UInt(bitPattern: ObjectIdentifier(context)) >> 4)
  }

  /// Marks the start of a build on `context`: of the singleton `key`, or of a transient.
  @inline(__always)
  func begin(_ context: BuildContext, building key: AnyServiceKey? = nil, generation: Int = 0)
    -> Span?
  {
    guard isEnabled else { return nil }
    context.nested.append(0)
    // An async build may end on another thread than it began on: no thread's CPU time counts it.
    let cpu =
      recording == .timingsAndCPU && key != nil && context.threadIndex != ThreadNames.taskIndex
      ? clock.threadCPUTime() : nil
    let signpost = key.map(Signposts.beginBuild) ?? nil
    return Span(start: now(), cpu: cpu, signpost: signpost, generation: generation)
  }

  /// Records the end of a transient build begun with `span`, into its service's totals.
  func endTransient(_ span: Span?, _ node: AnyNode, _ context: BuildContext) {
    guard let span else { return }
    let duration = now() &- span.start
    if !context.nested.isEmpty { _ = context.nested.removeLast() }
    if !context.nested.isEmpty { context.nested[context.nested.count - 1] &+= duration }
    madeTransient(node, taking: duration)
  }

  /// Records one making of the transient `node` that took `duration`, into its service's
  /// totals.
  func madeTransient(_ node: AnyNode, taking duration: UInt64) {
    if let tally = node.transientTally.load() {
      tally.add(duration, of: node)
      return
    }
    // The first making (or one of the first, racing): the node and the recorder's list keep
    // the tally. Listed as it is published, under the list's lock: a making another thread
    // counts in it as soon as it is published is in every report taken after that making (a
    // report leaves out a tally that has counted nothing yet).
    let made = TransientTally()
    let found = transients.withLock { list -> TransientTally? in
      let found = node.transientTally.setIfUnset(made)
      if found == nil { list.append(TransientEntry(node: node, tally: made)) }
      return found
    }
    (found ?? made).add(duration, of: node)
  }

  /// Forgets a build begun with `span` that never ran its factory (a dependency failed): its
  /// time is not a build's.
  func discard(_ span: Span?, _ context: BuildContext) {
    guard let span else { return }
    Signposts.endBuild(span.signpost)
    if !context.nested.isEmpty { _ = context.nested.removeLast() }
  }

  /// Records the end of the build begun with `span`.
  func end(
    _ span: Span?, _ node: AnyNode, _ context: BuildContext, attempt: Int,
    outcome: consuming RawBuild.Outcome
  ) {
    guard let span else { return }
    let end = now()
    Signposts.endBuild(span.signpost)
    let cpu = span.cpu.flatMap { start in clock.threadCPUTime().map { $0 &- start } }
    let nested = context.nested.isEmpty ? 0 : context.nested.removeLast()
    let inclusive = end &- span.start
    if !context.nested.isEmpty { context.nested[context.nested.count - 1] &+= inclusive }
    // The chain ends with this service; the one before it is what needed it.
    let requestedBy = context.chain.count > 1 ? context.chain[context.chain.count - 2] : nil
    let isScheduledRoot = context.scheduled === node
    // Recorded: the scheduled job has nothing left to record for its root if it fails.
    if isScheduledRoot { context.scheduled = nil }
    let priority = Self.priority(of: node, in: context)
    let (trigger, thread) = (context.trigger, context.threadIndex)
    let qos = isScheduledRoot ? context.qos : nil
    let queued = isScheduledRoot ? context.readyAt.map { span.start &- $0 } : nil
    // Moved into the log, not copied: a copy would retain and release its references.
    builds.append(
      RawBuild(
        node: node, priority: priority, trigger: trigger, requestedBy: requestedBy,
        threadIndex: thread, qos: qos, queued: queued, start: span.start, end: end,
        nested: nested,
        cpu: cpu, outcome: outcome, attempt: attempt, generation: span.generation),
      lane: lane(for: context))
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
    if !context.nested.isEmpty { context.nested[context.nested.count - 1] &+= duration }
    builds.append(
      RawBuild(
        node: node, priority: Self.priority(of: node, in: context), trigger: .scheduled,
        requestedBy: nil, threadIndex: context.threadIndex, qos: context.qos,
        queued: context.readyAt.map { start &- $0 }, start: start, end: end, nested: duration,
        cpu: nil, outcome: .failed(error), attempt: 0),
      lane: lane(for: context))
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
    let record = RawBuild(
      node: node, priority: priority, trigger: .scheduled, requestedBy: nil,
      threadIndex: ThreadNames.noneIndex, qos: priority.qos, queued: nil,
      start: now, end: now, nested: 0, cpu: nil, outcome: .cancelled, attempt: 0)
    builds.append(record, lane: 0)
  }

  /// Records that `context` waited from `start` until now for a build of `node`. The wait
  /// counts as nested time of the build `context` is running, if any: it is part of that
  /// build's inclusive time, not of its self time.
  func waited(for node: AnyNode, attempt: Int, by context: BuildContext, since start: UInt64) {
    guard isEnabled else { return }
    let end = now()
    if !context.nested.isEmpty { context.nested[context.nested.count - 1] &+= end &- start }
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

  var snapshot:
    (
      builds: [RawBuild], waits: [RawWait], transients: [(node: AnyNode, stats: TransientStats)],
      firstFrameUses: [AnyNode]
    )
  {
    (
      builds.all, waits.withLock { $0 },
      transients.withLock { $0 }.compactMap { entry in
        let stats = entry.tally.stats(of: entry.node)
        return stats.count == 0 ? nil : (entry.node, stats)
      },
      firstFrameUses.withLock { $0 }
    )
  }
}

/// An append-only log of builds that takes no lock: a few lanes, each appended to by any
/// thread, read by a report from any thread.
///
/// An append reserves its record's index in its lane with one atomic add, writes the record
/// (moved in, never copied: a copy would retain and release its references) into the lane's
/// chunk for that index, and marks it published with a release store of its flag. A reader
/// takes the lane's count with acquire ordering and copies every record whose flag it reads
/// set (acquire): every append that ended before the report was asked, in its lane's order.
/// A record still being written is left out, as one appended after the report would be.
///
/// Chunks hold 256 records each, so a log keeps at most one partly filled chunk a lane beyond
/// its records (chunks that doubled in size kept up to as much again: 170 bytes a build at
/// 10,000 builds instead of 108). A lane finds a chunk through a block of 256 chunk addresses,
/// and its blocks through a directory of fixed size in the log, so that nothing an append reads
/// ever moves: 64 blocks, 4,194,304 records a lane; appends past that are dropped, not
/// written. A chunk or a block is made by the first append that needs it (two that race make
/// one each, and the one that loses the exchange frees its own).
///
/// Safety: a record is written once, by the append that reserved its index, before its flag
/// is published; it is read only after its flag is seen set, and destroyed only with the log
/// (Docs/Design.md, "Memory safety").
final class BuildLog: @unchecked Sendable {
  private static let laneCount = 8
  /// Records a chunk, as a shift.
  private static let chunkShift = 8
  private static let chunkCapacity = 1 << chunkShift
  /// Chunk addresses a block, as a shift.
  private static let blockShift = 8
  private static let blockCapacity = 1 << blockShift
  /// Blocks a lane.
  private static let blocksPerLane = 64
  /// Records a lane can hold.
  private static let laneCapacity = blocksPerLane << (blockShift + chunkShift)
  /// Words a lane takes: its count, its blocks' addresses, padding to a cache line.
  private static let laneStride = 72
  /// Per lane: the count of reserved records (word 0), then the blocks' addresses.
  private let words: UnsafeMutablePointer<Atomic<Int>>

  init() {
    let count = Self.laneCount * Self.laneStride
    words = UnsafeMutableRawPointer.allocate(
      byteCount: count * MemoryLayout<Atomic<Int>>.stride, alignment: 64
    ).bindMemory(to: Atomic<Int>.self, capacity: count)
    for index in 0..<count { (words + index).initialize(to: Atomic(0)) }
  }

  deinit {
    for lane in 0..<Self.laneCount {
      let base = words + lane * Self.laneStride
      for blockNumber in 0..<Self.blocksPerLane {
        guard let block = Self.existing(base + 1 + blockNumber) else { continue }
        let chunks = block.assumingMemoryBound(to: Atomic<Int>.self)
        for chunkNumber in 0..<Self.blockCapacity {
          guard let chunk = Self.existing(chunks + chunkNumber) else { continue }
          let (records, flags) = Self.parts(of: chunk)
          for index in 0..<Self.chunkCapacity where flags[index].load(ordering: .acquiring) != 0 {
            (records + index).deinitialize(count: 1)
          }
          chunk.deallocate()
        }
        chunks.deinitialize(count: Self.blockCapacity)
        block.deallocate()
      }
    }
    words.deinitialize(count: Self.laneCount * Self.laneStride)
    UnsafeMutableRawPointer(words).deallocate()
  }

  /// The memory whose address `word` holds, if it was made.
  @inline(__always)
  private static func existing(_ word: UnsafeMutablePointer<Atomic<Int>>)
    -> UnsafeMutableRawPointer?
  {
    UnsafeMutableRawPointer(bitPattern: word.pointee.load(ordering: .acquiring))
  }

  /// A chunk's records, then its flags.
  @inline(__always)
  private static func parts(of chunk: UnsafeMutableRawPointer) -> (
    UnsafeMutablePointer<RawBuild>, UnsafeMutablePointer<Atomic<UInt8>>
  ) {
    let flags = chunk + chunkCapacity * MemoryLayout<RawBuild>.stride
    return (
      chunk.assumingMemoryBound(to: RawBuild.self),
      flags.assumingMemoryBound(to: Atomic<UInt8>.self)
    )
  }

  /// The chunk of a lane's record `index`, `nil` if it was not made yet; made if `make`.
  @inline(__always)
  private static func chunk(
    holding index: Int, of base: UnsafeMutablePointer<Atomic<Int>>, make: Bool
  ) -> UnsafeMutableRawPointer? {
    let chunkNumber = index >> chunkShift
    let blockWord = base + 1 + (chunkNumber >> blockShift)
    guard let block = existing(blockWord) ?? (make ? makeBlock(at: blockWord) : nil) else {
      return nil
    }
    let chunkWord =
      block.assumingMemoryBound(to: Atomic<Int>.self)
      + (chunkNumber & (blockCapacity - 1))
    return existing(chunkWord) ?? (make ? makeChunk(at: chunkWord) : nil)
  }

  /// Puts `made` in `word`, unless an append that raced this one put its own there first:
  /// then frees `made`. Returns the memory `word` holds.
  private static func install(
    _ made: UnsafeMutableRawPointer, at word: UnsafeMutablePointer<Atomic<Int>>
  ) -> UnsafeMutableRawPointer {
    let (exchanged, found) = word.pointee.compareExchange(
      expected: 0, desired: Int(bitPattern: made), ordering: .acquiringAndReleasing)
    if exchanged { return made }
    made.deallocate()
    return UnsafeMutableRawPointer(bitPattern: found).unsafelyUnwrapped
  }

  /// A block of chunk addresses, all zero, for `word` (once 65,536 records).
  @inline(never)
  private static func makeBlock(at word: UnsafeMutablePointer<Atomic<Int>>)
    -> UnsafeMutableRawPointer
  {
    let made = UnsafeMutableRawPointer.allocate(
      byteCount: blockCapacity * MemoryLayout<Atomic<Int>>.stride,
      alignment: MemoryLayout<Atomic<Int>>.alignment)
    let chunks = made.bindMemory(to: Atomic<Int>.self, capacity: blockCapacity)
    for index in 0..<blockCapacity { (chunks + index).initialize(to: Atomic(0)) }
    return install(made, at: word)
  }

  /// A chunk, its flags zeroed, for `word` (once 256 records).
  @inline(never)
  private static func makeChunk(at word: UnsafeMutablePointer<Atomic<Int>>)
    -> UnsafeMutableRawPointer
  {
    let made = UnsafeMutableRawPointer.allocate(
      byteCount: chunkCapacity * (MemoryLayout<RawBuild>.stride + 1),
      alignment: MemoryLayout<RawBuild>.alignment)
    // The flags zeroed at once (one `memset`), as the plain bytes an `Atomic<UInt8>` is.
    (made + chunkCapacity * MemoryLayout<RawBuild>.stride)
      .initializeMemory(as: UInt8.self, repeating: 0, count: chunkCapacity)
    _ = (made + chunkCapacity * MemoryLayout<RawBuild>.stride)
      .bindMemory(to: Atomic<UInt8>.self, capacity: chunkCapacity)
    return install(made, at: word)
  }

  /// Appends `record` to lane `lane` (any number: it is reduced to a lane's).
  @inline(__always)
  func append(_ record: consuming RawBuild, lane: Int) {
    let base = words + (lane & (Self.laneCount - 1)) * Self.laneStride
    let index = base[0].wrappingAdd(1, ordering: .relaxed).oldValue
    guard index < Self.laneCapacity,
      let chunk = Self.chunk(holding: index, of: base, make: true)
    else { return }
    let (records, flags) = Self.parts(of: chunk)
    let offset = index & (Self.chunkCapacity - 1)
    (records + offset).initialize(to: record)
    flags[offset].store(1, ordering: .releasing)
  }

  /// Every record whose append has ended, lane by lane, each lane's oldest first.
  var all: [RawBuild] {
    var all: [RawBuild] = []
    for lane in 0..<Self.laneCount {
      let base = words + lane * Self.laneStride
      let count = Swift.min(base[0].load(ordering: .acquiring), Self.laneCapacity)
      var index = 0
      while index < count {
        let end = Swift.min(count, (index | (Self.chunkCapacity - 1)) + 1)
        // A chunk its first append has not made yet holds nothing published.
        if let chunk = Self.chunk(holding: index, of: base, make: false) {
          let (records, flags) = Self.parts(of: chunk)
          let first = index & (Self.chunkCapacity - 1)
          for position in first..<(first + end - index)
          where flags[position].load(ordering: .acquiring) != 0 {
            all.append(records[position])
          }
        }
        index = end
      }
    }
    return all
  }
}
