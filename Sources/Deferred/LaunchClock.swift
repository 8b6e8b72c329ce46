#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The clock a container times its launch with: nanoseconds on a clock that never goes back.
///
/// ``MonotonicClock`` is the real one; ``ManualClock`` lets tests set the time, so recorded
/// figures are exact and nothing waits on real time.
public protocol LaunchClock: Sendable {
  /// The current time, in nanoseconds since a fixed point of the clock's choosing.
  func now() -> UInt64

  /// When the process started, on this clock.
  var processStart: ProcessStart { get }

  /// The CPU time the calling thread has used, in nanoseconds, or `nil` where the clock does
  /// not measure it: with the wall time of a build, it tells running from blocked.
  func threadCPUTime() -> UInt64?
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`), shared by every process on the machine.
public struct MonotonicClock: LaunchClock {
  /// Creates the clock.
  public init() {}

  /// Nanoseconds on `CLOCK_MONOTONIC`.
  public func now() -> UInt64 {
    Self.monotonicNow()
  }

  /// Nanoseconds on `CLOCK_MONOTONIC`, read directly: what a recorder whose clock is this one
  /// calls, without going through the `LaunchClock` witness of an existential.
  @inline(__always)
  static func monotonicNow() -> UInt64 {
    read(CLOCK_MONOTONIC)
  }

  /// The process start: handed over by the launcher, or read from the operating system.
  public var processStart: ProcessStart { .monotonic }

  /// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`).
  public func threadCPUTime() -> UInt64? {
    Self.read(CLOCK_THREAD_CPUTIME_ID)
  }

  @inline(__always)
  private static func read(_ clock: clockid_t) -> UInt64 {
    var spec = timespec()
    clock_gettime(clock, &spec)
    // Wrapping arithmetic: neither field is negative, and a monotonic clock does not reach
    // 584 years (no overflow checks on every reading).
    return UInt64(truncatingIfNeeded: spec.tv_sec) &* 1_000_000_000
      &+ UInt64(truncatingIfNeeded: spec.tv_nsec)
  }
}
