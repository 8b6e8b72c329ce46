/// A clock that moves only when told to: for tests that step through a launch.
///
/// ```swift
/// let clock = ManualClock()
/// let scheduler = ManualScheduler(clock: clock)
/// let container = Container(scheduler: scheduler, clock: clock)
/// // ... launch, first frame ...
/// clock.advance(by: .seconds(10))   // idle services are now queued
/// scheduler.runAll()
/// ```
///
/// A factory can advance it to stand for the time it takes, and the recorded figures are then
/// exact.
public final class ManualClock: LaunchClock {
  private struct State {
    var now: UInt64
    var timers: [(deadline: UInt64, order: Int, fire: @Sendable () -> Void)] = []
    var nextOrder = 0
  }

  private let state: Locked<State>
  /// `state.now`, stored under the lock and read without it.
  private let reading: AtomicWord
  private let start: UInt64

  /// Creates a clock that reads `start` nanoseconds.
  ///
  /// - Parameter start: The first reading.
  public init(start: UInt64 = 0) {
    self.start = start
    state = Locked(State(now: start))
    reading = AtomicWord(start)
  }

  /// The clock's first reading: the process "started" then.
  public var processStart: ProcessStart {
    ProcessStart(nanoseconds: start, source: .clock, precision: 0)
  }

  /// `nil`: a manual clock does not measure CPU time.
  public func threadCPUTime() -> UInt64? { nil }

  /// The current reading, in nanoseconds.
  public func now() -> UInt64 {
    reading.loadAcquire()
  }

  /// Moves the clock forward, then fires the timers that fell due, earliest first.
  ///
  /// The clock never goes back: a negative duration leaves it where it is. It stops at its
  /// last reading, `UInt64.max` nanoseconds (about 584 years), where every timer is due.
  ///
  /// - Parameter duration: How far to move.
  public func advance(by duration: Duration) {
    let due = state.withLock { state in
      state.now = deadline(after: duration, from: state.now)
      let now = state.now
      reading.storeRelease(now)
      let due = state.timers.filter { $0.deadline <= now }.sorted {
        ($0.deadline, $0.order) < ($1.deadline, $1.order)
      }
      state.timers.removeAll { $0.deadline <= now }
      return due
    }
    for timer in due { timer.fire() }
  }

  /// Calls `fire` once the clock has been advanced by `delay` from now.
  func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) {
    let fireNow = state.withLock { state in
      guard delay > .zero else { return true }
      state.timers.append((deadline(after: delay, from: state.now), state.nextOrder, fire))
      state.nextOrder += 1
      return false
    }
    if fireNow { fire() }
  }
}
