/// Where a container's launch is, and the deferred builds it schedules, behind one lock.
struct LaunchState {
  enum Phase: UInt8, Equatable {
    case notLaunched
    case launching
    /// Critical services built; waiting for the first frame.
    case launched
    /// First frame reported: deferred builds are scheduled.
    case deferring
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

  /// One deferred build: a reference, so that updating one never copies another's list of
  /// dependents, and so that the schedule links entries to each other, not to dictionary keys.
  /// Read and written only under the launch lock; a job holds one to name its build.
  final class Entry: @unchecked Sendable {
    let node: AnyNode
    let priority: Priority
    /// Registration order, to keep builds of equal rank in the order the app registered them.
    let order: Int
    /// Scheduled dependencies not built yet.
    var gates = 0
    var dependents: [Entry] = []
    /// For idle services: released by their delay or by the app saying it is idle.
    var released: Bool
    var status = Status.blocked
    /// When it became ready to run, for the time it spent queued.
    var readyAt: UInt64?

    init(node: AnyNode, priority: Priority, order: Int, released: Bool) {
      self.node = node
      self.priority = priority
      self.order = order
      self.released = released
    }

    var isFinished: Bool {
      switch status {
      case .built, .failed, .skipped, .cancelled: true
      default: false
      }
    }
  }

  /// Where the launch is; every change is mirrored in ``Container/launchPhase`` for readers that
  /// take no lock (registration).
  var phase = Phase.notLaunched
  var flags: Set<LaunchFlag> = []
  var paused = false
  var idleRequested = false
  var entries = EntryTable()
  /// Synchronous entries that may run now, best first; async ones, in the order they became
  /// ready. Entries skipped or cancelled meanwhile are dropped when they come up.
  var readySync = RankedQueue()
  var readyAsync: [Entry] = []
  /// Synchronous builds handed to the scheduler or running: bounded by the container's width.
  var inFlight = 0
  /// Deferred builds not finished yet.
  var remaining = 0

  var milestones = Milestones()
  var fullyReadyCallbacks: [@Sendable () -> Void] = []
  var fullyReadyWaiters: [CheckedContinuation<Void, any Error>] = []

  /// Marks `entry` ready to run, if nothing holds it back any more.
  mutating func makeReady(_ entry: Entry, at now: UInt64) {
    guard entry.status == .blocked, entry.gates == 0, entry.released else { return }
    entry.status = .ready
    entry.readyAt = entry.readyAt ?? now
    if entry.node.isAsync {
      readyAsync.append(entry)
    } else {
      readySync.push(entry, rank: Self.rank(entry))
    }
  }

  /// Phase, then quality of service, then registration order: lower runs first.
  private static func rank(_ entry: Entry) -> UInt64 {
    let qos = UInt64(QualityOfService.allCases.firstIndex(of: entry.priority.qos) ?? 0)
    return UInt64(entry.priority.stage.rawValue) << 56 | qos << 48 | UInt64(entry.order)
  }

  /// Takes the entries to hand to the scheduler now: every ready async build, and synchronous
  /// ones up to `width` in flight.
  mutating func takeSubmittable(width: Int) -> [Entry] {
    guard !paused, phase == .deferring else { return [] }
    var taken: [Entry] = []
    func submit(_ entry: Entry) -> Bool {
      guard entry.status == .ready else { return false }
      entry.status = .submitted
      taken.append(entry)
      return true
    }
    for entry in readyAsync { _ = submit(entry) }
    readyAsync = []
    while inFlight < width, let entry = readySync.pop() {
      if submit(entry) { inFlight += 1 }
    }
    return taken
  }

  /// Ends an entry; on failure, the scheduled services that need it are skipped (left to be
  /// built on demand, where the error is reported to whoever asks).
  mutating func finish(_ entry: Entry, as status: Status, at now: UInt64) {
    guard !entry.isFinished else { return }
    entry.status = status
    remaining -= 1
    if status == .built {
      for dependent in entry.dependents {
        dependent.gates -= 1
        makeReady(dependent, at: now)
      }
    } else {
      var queue = entry.dependents
      while let dependent = queue.popLast() {
        guard !dependent.isFinished, dependent.status != .running else { continue }
        dependent.status = .skipped
        remaining -= 1
        queue += dependent.dependents
      }
    }
  }

  /// Whether every deferred build has finished (the app is fully ready).
  var isFullyReady: Bool { phase == .deferring && remaining == 0 }
}

/// When each step of the launch happened, in nanoseconds on the container's clock.
struct Milestones {
  var launchBegan: UInt64?
  var criticalReady: UInt64?
  var firstFrame: UInt64?
  var fullyReady: UInt64?
}

/// A binary min-heap of entries by rank: ready builds, best first, in O(log n).
struct RankedQueue {
  private var items: [(rank: UInt64, entry: LaunchState.Entry)] = []

  var isEmpty: Bool { items.isEmpty }

  mutating func push(_ entry: LaunchState.Entry, rank: UInt64) {
    items.append((rank, entry))
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child].rank < items[parent].rank else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() -> LaunchState.Entry? {
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
  private var slots: [LaunchState.Entry?] = Array(repeating: nil, count: 16)
  private(set) var count = 0

  /// Every entry, in no particular order.
  var values: [LaunchState.Entry] { slots.compactMap { $0 } }

  /// The entry of `node`, if it has one.
  subscript(node: AnyNode) -> LaunchState.Entry? {
    var index = Self.index(of: node, in: slots.count)
    while let entry = slots[index] {
      if entry.node === node { return entry }
      index = (index + 1) & (slots.count - 1)
    }
    return nil
  }

  /// Adds an entry; its node must have none yet.
  mutating func insert(_ entry: LaunchState.Entry) {
    reserveCapacity(count + 1)
    Self.place(entry, in: &slots)
    count += 1
  }

  /// Makes room for `capacity` entries in all, at most half the slots full.
  mutating func reserveCapacity(_ capacity: Int) {
    guard capacity * 2 > slots.count else { return }
    var size = slots.count
    while capacity * 2 > size { size *= 2 }
    var grown = [LaunchState.Entry?](repeating: nil, count: size)
    for case let entry? in slots { Self.place(entry, in: &grown) }
    slots = grown
  }

  private static func place(_ entry: LaunchState.Entry, in slots: inout [LaunchState.Entry?]) {
    var index = index(of: entry.node, in: slots.count)
    while slots[index] != nil { index = (index + 1) & (slots.count - 1) }
    slots[index] = entry
  }

  private static func index(of node: AnyNode, in size: Int) -> Int {
    multiplyShift(
      UInt(bitPattern: ObjectIdentifier(node)), shift: UInt.bitWidth - size.trailingZeroBitCount)
  }
}
