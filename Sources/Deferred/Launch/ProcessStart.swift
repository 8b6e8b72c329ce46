#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// When the process started, on a ``LaunchClock``, and where that figure came from.
///
/// Launch reports measure every offset from process start, so the time before `main` counts.
/// The figure comes from the most precise source there is: a launcher's
/// ``Source-swift.enum/handover`` (it read ``MonotonicClock`` just before it spawned this
/// process and passed it in `DEFERRED_SPAWN_NS`), then the ``Source-swift.enum/operatingSystem``
/// (Linux's `/proc/self/stat`, in clock ticks of usually 10 ms; Apple's `sysctl`, in
/// microseconds), then the ``Source-swift.enum/clock``'s own reading.
///
/// A process the system prewarmed (`ActivePrewarm=1`) started long before the user's launch:
/// its figure is then the first use of Deferred's clock, and its ``kind-swift.property`` is
/// ``Kind-swift.enum/prewarmed``.
public struct ProcessStart: Sendable, Hashable {
  /// Where a process start figure came from.
  public enum Source: String, Sendable, Hashable, Codable {
    /// Handed over by the launcher in `DEFERRED_SPAWN_NS`.
    case handover
    /// Read from the operating system.
    case operatingSystem
    /// The clock's own reading: a manual clock's start, or a prewarmed process's first use of
    /// the monotonic clock.
    case clock
    /// Not known: offsets count from the container's creation.
    case unknown
  }

  /// What a process start figure marks.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// The start of the process: the user's launch.
    case launch
    /// The system prewarmed the process before the user launched it (`ActivePrewarm`): the
    /// figure marks the first use of Deferred instead, and the time before `main` is not in
    /// the report.
    case prewarmed
  }

  /// The process start, in nanoseconds on the clock that reported it.
  public let nanoseconds: UInt64
  /// Where the figure came from.
  public let source: Source
  /// How precise the figure is, in nanoseconds (10 ms for Linux's clock ticks).
  public let precision: UInt64
  /// What the figure marks: the process's start, or the first use of Deferred in a prewarmed
  /// process.
  public let kind: Kind

  /// Creates a process start.
  ///
  /// - Parameters:
  ///   - nanoseconds: The start, on the clock's scale.
  ///   - source: Where it came from.
  ///   - precision: How precise it is, in nanoseconds.
  ///   - kind: What it marks: ``Kind-swift.enum/launch`` unless the process was prewarmed.
  public init(nanoseconds: UInt64, source: Source, precision: UInt64, kind: Kind = .launch) {
    self.nanoseconds = nanoseconds
    self.source = source
    self.precision = precision
    self.kind = kind
  }

  /// When this process first used ``MonotonicClock``, on it and on the operating system's
  /// clock, read together: the process's age is taken now, since the monotonic clock stops
  /// while the device sleeps and the system's does not.
  static let firstUse = (monotonic: MonotonicClock.monotonicNow(), system: systemNow())

  static let monotonic = resolve(
    environment: { name in getenv(name).map { String(cString: $0) } },
    firstUse: firstUse.monotonic, operatingSystem: fromOperatingSystem)

  /// The process start: `firstUse` in a prewarmed process (`ActivePrewarm=1`), else a
  /// launcher's handover (`DEFERRED_SPAWN_NS`), else `operatingSystem()`.
  static func resolve(
    environment: (String) -> String?, firstUse: UInt64,
    operatingSystem: () -> ProcessStart?
  ) -> ProcessStart {
    if environment("ActivePrewarm") == "1" {
      return ProcessStart(nanoseconds: firstUse, source: .clock, precision: 0, kind: .prewarmed)
    }
    if let raw = environment("DEFERRED_SPAWN_NS"), let value = UInt64(raw) {
      return ProcessStart(nanoseconds: value, source: .handover, precision: 1_000)
    }
    return operatingSystem()
      ?? ProcessStart(nanoseconds: firstUse, source: .unknown, precision: 0)
  }

  /// The clock the system's process start is on: the wall clock on Apple, `CLOCK_BOOTTIME` here.
  private static func systemNow() -> UInt64 {
    #if canImport(Darwin)
      var wall = timeval()
      gettimeofday(&wall, nil)
      return UInt64(max(0, Int64(wall.tv_sec) * 1_000_000 + Int64(wall.tv_usec))) * 1_000
    #else
      var boot = timespec()
      clock_gettime(CLOCK_BOOTTIME, &boot)
      return UInt64(boot.tv_sec) * 1_000_000_000 + UInt64(boot.tv_nsec)
    #endif
  }

  /// The operating system's process start, moved to the monotonic clock by its age at first use.
  private static func fromOperatingSystem() -> ProcessStart? {
    #if canImport(Darwin)
      var info = kinfo_proc()
      var size = MemoryLayout<kinfo_proc>.stride
      var mib: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, getpid()]
      guard sysctl(&mib, 4, &info, &size, nil, 0) == 0 else { return nil }
      let started = info.kp_proc.p_un.__p_starttime
      let startMicros = Int64(started.tv_sec) * 1_000_000 + Int64(started.tv_usec)
      let startedAt = UInt64(max(0, startMicros)) * 1_000
      let precision: UInt64 = 1_000
    #else
      // Field 22 of /proc/self/stat: start time in clock ticks since boot (CLOCK_BOOTTIME).
      guard let stat = FileManager.default.contents(atPath: "/proc/self/stat") else { return nil }
      let text = String(decoding: stat, as: UTF8.self)
      // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
      guard let close = text.lastIndex(of: ")") else { return nil }
      let fields = text[text.index(after: close)...].split(separator: " ")
      guard fields.count > 19, let ticks = UInt64(fields[19]) else { return nil }
      let hertz = UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
      let startedAt = ticks * (1_000_000_000 / hertz)
      let precision = 1_000_000_000 / hertz
    #endif
    let (monotonic, system) = firstUse
    let age = system > startedAt ? system - startedAt : 0
    return ProcessStart(
      nanoseconds: monotonic > age ? monotonic - age : 0, source: .operatingSystem,
      precision: precision)
  }
}
