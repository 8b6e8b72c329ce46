/// Where a container's launch is, and the deferred builds it schedules, behind one lock.
struct LaunchState {
  enum Phase: Equatable {
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

  /// One deferred build.
  struct Entry {
    let node: AnyNode
    let priority: Priority
    /// Registration order, to keep builds of equal rank in the order the app registered them.
    let order: Int
    /// Scheduled dependencies not built yet.
    var gates = 0
    var dependents: [ObjectIdentifier] = []
    /// For idle services: released by their delay or by the app saying it is idle.
    var released: Bool
    var status = Status.blocked
    /// When it became ready to run, for the time it spent queued.
    var readyAt: UInt64?

    var isFinished: Bool {
      switch status {
      case .built, .failed, .skipped, .cancelled: true
      default: false
      }
    }
  }

  var phase = Phase.notLaunched
  var flags: Set<LaunchFlag> = []
  var paused = false
  var idleRequested = false
  var entries: [ObjectIdentifier: Entry] = [:]
  /// Entries that may run now, best first.
  var ready: [ObjectIdentifier] = []
  /// Synchronous builds handed to the scheduler or running: bounded by the container's width.
  var inFlight = 0
  /// Deferred builds not finished yet.
  var remaining = 0

  var milestones = Milestones()
  var fullyReadyCallbacks: [@Sendable () -> Void] = []
  var fullyReadyWaiters: [CheckedContinuation<Void, any Error>] = []

  /// Marks `id` ready to run and keeps ``ready`` ordered: quality of service first, then
  /// registration order.
  mutating func makeReady(_ id: ObjectIdentifier, at now: UInt64) {
    guard var entry = entries[id], entry.status == .blocked, entry.gates == 0, entry.released
    else { return }
    entry.status = .ready
    entry.readyAt = entry.readyAt ?? now
    entries[id] = entry
    let rank = Self.rank(entry)
    let index = ready.firstIndex { other in
      entries[other].map { Self.rank($0) > rank } ?? false
    }
    ready.insert(id, at: index ?? ready.endIndex)
  }

  private static func rank(_ entry: Entry) -> (Int, Int, Int) {
    let qos = QualityOfService.allCases.firstIndex(of: entry.priority.qos) ?? 0
    return (entry.priority.phase, qos, entry.order)
  }

  /// Takes the entries to hand to the scheduler now, within `width` synchronous builds.
  mutating func takeSubmittable(width: Int) -> [AnyNode] {
    guard !paused, phase == .deferring else { return [] }
    var taken: [AnyNode] = []
    var index = 0
    while index < ready.count {
      let id = ready[index]
      guard var entry = entries[id] else {
        ready.remove(at: index)
        continue
      }
      if !entry.node.isAsync && inFlight >= width {
        index += 1
        continue
      }
      ready.remove(at: index)
      entry.status = .submitted
      entries[id] = entry
      if !entry.node.isAsync { inFlight += 1 }
      taken.append(entry.node)
    }
    return taken
  }

  /// Ends an entry; on failure, the scheduled services that need it are skipped (left to be
  /// built on demand, where the error is reported to whoever asks).
  mutating func finish(_ id: ObjectIdentifier, as status: Status, at now: UInt64) {
    guard var entry = entries[id], !entry.isFinished else { return }
    entry.status = status
    entries[id] = entry
    remaining -= 1
    if status == .built {
      for dependent in entry.dependents {
        entries[dependent]?.gates -= 1
        makeReady(dependent, at: now)
      }
    } else {
      var queue = entry.dependents
      while let next = queue.popLast() {
        guard var dependent = entries[next], !dependent.isFinished, dependent.status != .running
        else { continue }
        dependent.status = .skipped
        entries[next] = dependent
        ready.removeAll { $0 == next }
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
