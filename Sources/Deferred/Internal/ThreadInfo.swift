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
  /// No thread: a build that never started (cancelled by a shutdown).
  static let noThread = ThreadInfo(isMain: false, name: "none")

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
      // Two calls into the C library, no file: reading /proc costs tens of microseconds in a
      // process that has just started, on the launching thread, before its first build.
      let tid = Int(LinuxThreads.tid?() ?? 0)
      let isMain = tid != 0 && tid == Int(getpid())
      var own = ""
      if !isMain, let getName = LinuxThreads.getName {
        var buffer = [CChar](repeating: 0, count: 32)
        if getName(pthread_self(), &buffer, buffer.count) == 0 {
          own = String(
            decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
      }
      return ThreadInfo(isMain: isMain, name: isMain ? "main" : label(own, tid))
    #endif
  }

  private static func label(_ own: String, _ tid: Int) -> String {
    let trimmed = own.split(whereSeparator: { $0 == "\n" || $0 == "\0" }).first.map(String.init)
    guard let trimmed, !trimmed.isEmpty else { return "thread \(tid)" }
    return "\(trimmed) (\(tid))"
  }
}

/// The threads that ran builds, interned: a build record keeps its thread as a four-byte index
/// (nothing retained per build), and a report reads it back. A build context takes its
/// thread's index once, when it is made; an entry is kept for the life of the process, one per
/// thread that ever built something (a few, in an app).
enum ThreadNames {
  private static let table = InternTable([ThreadInfo.task, ThreadInfo.noThread])
  /// The index of ``ThreadInfo/task`` (an async build's).
  static let taskIndex: UInt32 = 0
  /// The index of ``ThreadInfo/noThread`` (a build that never started).
  static let noneIndex: UInt32 = 1

  /// The index of `thread`, taken once per distinct thread (an async build's without a lock:
  /// one is made for each async resolve).
  static func index(of thread: ThreadInfo) -> UInt32 {
    if !thread.isMain && thread.name == "task" { return taskIndex }
    return table.index(of: thread)
  }

  /// The thread of `index`.
  static func thread(at index: UInt32) -> ThreadInfo { table.value(at: index) }
}

#if !canImport(Darwin)
  /// `gettid` and `pthread_getname_np`, which the Glibc module does not import, looked up once.
  private enum LinuxThreads {
    typealias GetTid = @convention(c) () -> pid_t
    typealias GetName = @convention(c) (pthread_t, UnsafeMutablePointer<CChar>?, Int) -> Int32

    static let tid = dlsym(nil, "gettid").map { unsafeBitCast($0, to: GetTid.self) }
    static let getName = dlsym(nil, "pthread_getname_np").map {
      unsafeBitCast($0, to: GetName.self)
    }
  }
#endif
