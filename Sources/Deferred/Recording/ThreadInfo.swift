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
  /// Any thread once ``ThreadNames`` holds its limit.
  static let otherThread = ThreadInfo(isMain: false, name: "another thread")

  static func current() -> ThreadInfo {
    #if canImport(Darwin)
      let isMain = pthread_main_np() != 0
      guard !isMain else { return ThreadInfo(isMain: true, name: "main") }
      var buffer = [CChar](repeating: 0, count: 64)
      pthread_getname_np(pthread_self(), &buffer, buffer.count)
      let own = String(
        decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      var tid: UInt64 = 0
      pthread_threadid_np(nil, &tid)
      return ThreadInfo(isMain: false, name: label(own, Int(tid)))
    #else
      let tid = linuxThreadID()
      let isMain = tid != 0 && tid == Int(getpid())
      guard !isMain else { return ThreadInfo(isMain: true, name: "main") }
      return ThreadInfo(isMain: false, name: label(linuxThreadName(), tid))
    #endif
  }

  private static func label(_ own: String, _ tid: Int) -> String {
    let trimmed = own.split(whereSeparator: { $0 == "\n" || $0 == "\0" }).first.map(String.init)
    guard let trimmed, !trimmed.isEmpty else { return "thread \(tid)" }
    return "\(trimmed) (\(tid))"
  }

  #if !canImport(Darwin)
    /// The calling thread's kernel id (the main thread's is the process id), or 0.
    ///
    /// The C library module does not bring `gettid` into Swift, and `syscall` is variadic, so
    /// the id is read from the thread's CPU-time clock instead: Linux makes a thread's clock id
    /// from its id as `~tid << 3 | 6` (a per-thread scheduler clock), the encoding the C
    /// libraries use too. No system call: the main thread's first build pays nothing here.
    private static func linuxThreadID() -> Int {
      var clock = clockid_t()
      guard pthread_getcpuclockid(pthread_self(), &clock) == 0, clock & 7 == 6 else { return 0 }
      return Int(~(clock >> 3))
    }

    /// The calling thread's own name, or "" (`pthread_getname_np` is not brought into Swift
    /// either): read from the kernel's file for it, once per thread other than the main one.
    private static func linuxThreadName() -> String {
      let file = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
      guard file >= 0 else { return "" }
      defer { close(file) }
      var bytes = [UInt8](repeating: 0, count: 32)
      let count = read(file, &bytes, bytes.count)
      return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
    }
  #endif
}

/// The threads that ran builds, interned: a build record keeps its thread as a four-byte index
/// (nothing retained per build), and a report reads it back. A build context takes its
/// thread's index once, when it is made; an entry is kept for the life of the process, one per
/// thread that ever built something (a few, in an app). A process that starts thread after
/// thread (Dispatch lets idle workers go, and makes new ones) keeps at most ``limit``: a
/// thread beyond them is named ``ThreadInfo/otherThread`` in reports.
enum ThreadNames {
  /// The most threads named.
  static let limit = 1_024
  private static let table = InternTable(
    [ThreadInfo.task, ThreadInfo.noThread, ThreadInfo.otherThread], limit: limit,
    overflow: otherIndex)
  /// The index of ``ThreadInfo/task`` (an async build's).
  static let taskIndex: UInt32 = 0
  /// The index of ``ThreadInfo/noThread`` (a build that never started).
  static let noneIndex: UInt32 = 1
  /// The index of ``ThreadInfo/otherThread`` (a thread beyond the first ``limit``).
  static let otherIndex: UInt32 = 2

  /// The index of `thread`, taken once per distinct thread (an async build's without a lock:
  /// one is made for each async resolve).
  static func index(of thread: ThreadInfo) -> UInt32 {
    if !thread.isMain && thread.name == "task" { return taskIndex }
    return table.index(of: thread)
  }

  /// The thread of `index`.
  static func thread(at index: UInt32) -> ThreadInfo { table.value(at: index) }
}
