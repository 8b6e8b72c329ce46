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

/// The system's monotonic clock, shared by every process on the machine: nanoseconds that never
/// go back.
///
/// On Apple platforms it is `CLOCK_UPTIME_RAW`, the clock signposts and Instruments use
/// (`CLOCK_MONOTONIC` has only microsecond resolution there); it stops while the device
/// sleeps. Elsewhere it is `CLOCK_MONOTONIC`. A launcher that hands its spawn time to a child
/// (``ProcessStart``) reads this clock. The first one made marks where a prewarmed process
/// measures its launch from.
public struct MonotonicClock: LaunchClock {
  /// Creates the clock.
  public init() {
    _ = ProcessStart.firstUse
  }

  /// Nanoseconds on the system's monotonic clock.
  public func now() -> UInt64 {
    Self.monotonicNow()
  }

  /// Nanoseconds on the system's monotonic clock, for callers that know the clock's type.
  @inline(__always)
  static func monotonicNow() -> UInt64 {
    #if canImport(Darwin)
      clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
    #else
      read(CLOCK_MONOTONIC)
    #endif
  }

  /// The process start: handed over by the launcher, or read from the operating system; in a
  /// prewarmed process, the first use of this clock.
  public var processStart: ProcessStart { .monotonic }

  /// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`): a call into the kernel, so only
  /// ``Recording/timingsAndCPU`` reads it.
  public func threadCPUTime() -> UInt64? {
    #if canImport(Darwin)
      clock_gettime_nsec_np(CLOCK_THREAD_CPUTIME_ID)
    #else
      Self.read(CLOCK_THREAD_CPUTIME_ID)
    #endif
  }

  #if !canImport(Darwin)
    @inline(__always)
    private static func read(_ clock: clockid_t) -> UInt64 {
      var spec = timespec()
      clock_gettime(clock, &spec)
      // Wrapping: neither field is negative, and a monotonic clock does not reach 584 years.
      return UInt64(truncatingIfNeeded: spec.tv_sec) &* 1_000_000_000
        &+ UInt64(truncatingIfNeeded: spec.tv_nsec)
    }
  #endif
}
