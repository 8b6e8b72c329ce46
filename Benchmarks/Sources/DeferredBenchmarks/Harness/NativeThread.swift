#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A POSIX thread that runs one closure, with the stack size asked for.
struct NativeThread: ~Copyable {
  #if canImport(Darwin)
    private let thread: pthread_t?
  #else
    private let thread: pthread_t
  #endif

  private final class Work {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// Starts `body` on a new thread; with `stackSize` in bytes, or the system's default.
  init(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackSize {
      precondition(pthread_attr_setstacksize(&attributes, stackSize) == 0, "bad stack size")
    }
    let work = Unmanaged.passRetained(Work(body)).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let result = pthread_create(
      &thread, &attributes,
      { raw in
        #if canImport(Darwin)
          let work = Unmanaged<Work>.fromOpaque(raw).takeRetainedValue()
        #else
          let work = Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue()
        #endif
        work.body()
        return nil
      }, work)
    precondition(result == 0, "pthread_create failed: \(result)")
    self.thread = thread
  }

  /// Waits for the closure to return.
  consuming func join() {
    #if canImport(Darwin)
      pthread_join(thread!, nil)
    #else
      pthread_join(thread, nil)
    #endif
  }
}
