#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Who a thread is, as reports and errors name it. Read once per thread, when its build
/// context is made, never on the resolve path.
struct ThreadInfo: Sendable, Hashable {
  /// Whether this is the process's main thread.
  let isMain: Bool
  /// A readable name: `main`, or the thread's own name and number.
  let name: String

  /// An async build, which may hop threads.
  static let task = ThreadInfo(isMain: false, name: "task")

  static func current() -> ThreadInfo {
    #if canImport(Darwin)
      let isMain = pthread_main_np() != 0
      var buffer = [CChar](repeating: 0, count: 64)
      pthread_getname_np(pthread_self(), &buffer, buffer.count)
      let own = String(
        decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      var tid: UInt64 = 0
      pthread_threadid_np(nil, &tid)
      return ThreadInfo(isMain: isMain, name: isMain ? "main" : label(own, Int(tid)))
    #else
      // "/proc/thread-self" links to "<pid>/task/<tid>": the main thread's tid is the pid.
      let link = readLink("/proc/thread-self")
      let parts = link.split(separator: "/")
      let tid = parts.last.flatMap { Int($0) } ?? 0
      let isMain = parts.first.flatMap { Int($0) } == tid && tid != 0
      let own = readSmallFile("/proc/thread-self/comm")
      return ThreadInfo(isMain: isMain, name: isMain ? "main" : label(own, tid))
    #endif
  }

  private static func label(_ own: String, _ tid: Int) -> String {
    let trimmed = own.split(whereSeparator: { $0 == "\n" || $0 == "\0" }).first.map(String.init)
    guard let trimmed, !trimmed.isEmpty else { return "thread \(tid)" }
    return "\(trimmed) (\(tid))"
  }

  #if !canImport(Darwin)
    private static func readLink(_ path: String) -> String {
      var buffer = [UInt8](repeating: 0, count: 128)
      let count = buffer.withUnsafeMutableBufferPointer { raw in
        raw.withMemoryRebound(to: CChar.self) { readlink(path, $0.baseAddress!, $0.count) }
      }
      guard count > 0 else { return "" }
      return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    private static func readSmallFile(_ path: String) -> String {
      let fd = open(path, O_RDONLY)
      guard fd >= 0 else { return "" }
      defer { close(fd) }
      var buffer = [UInt8](repeating: 0, count: 64)
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      guard count > 0 else { return "" }
      return String(decoding: buffer[0..<count], as: UTF8.self)
    }
  #endif
}
