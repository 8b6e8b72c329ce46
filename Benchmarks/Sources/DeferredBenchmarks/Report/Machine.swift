#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the benchmarks ran on, and when.
enum Machine {
  /// Such as `2-core Linux x86_64, Swift 6.3.1`.
  static var description: String {
    var names = utsname()
    uname(&names)
    let system = withUnsafeBytes(of: names.sysname) { text($0) }
    let machine = withUnsafeBytes(of: names.machine) { text($0) }
    let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    return "\(cores)-core \(system) \(machine), Swift \(compilerVersion)"
  }

  /// The text of a NUL-terminated C string held in a fixed-size field.
  private static func text(_ bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
  }

  /// Today's date in UTC, as `date -u +%F` writes it.
  static var today: String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    let month = parts.tm_mon + 1
    let day = parts.tm_mday
    return "\(parts.tm_year + 1900)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
  }

  /// The version of the compiler that built the benchmarks.
  private static var compilerVersion: String {
    #if compiler(>=6.5)
      "6.5 or later"
    #elseif compiler(>=6.4)
      "6.4"
    #elseif compiler(>=6.3.3)
      "6.3.3"
    #elseif compiler(>=6.3.2)
      "6.3.2"
    #elseif compiler(>=6.3.1)
      "6.3.1"
    #elseif compiler(>=6.3)
      "6.3"
    #elseif compiler(>=6.2)
      "6.2"
    #elseif compiler(>=6.1)
      "6.1"
    #else
      "6.0"
    #endif
  }
}
