#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The library's one lock primitive: a `pthread_mutex_t` in memory its owner provides.
///
/// Every lock of the library is one of these: ``Locked`` (state and mutex in one allocation),
/// the shared node locks (``NodeLocks``, cache-line spaced) and the build logs. Every return
/// code is checked. In debug builds the mutex checks errors, so taking it twice on one thread
/// or releasing it from another traps instead of hanging; in release builds on Linux it is an
/// adaptive mutex, which spins briefly before it sleeps (glibc's default sleeps in the kernel at
/// once, and two threads taking turns at a lock held for a few field updates would switch
/// contexts every time).
///
/// Why not `Synchronization.Mutex`: on Linux its contended path runs through futex calls inside
/// the uninstrumented standard library, which ThreadSanitizer cannot see, so every contended
/// access it guards is reported as a race. A pthread mutex is intercepted by ThreadSanitizer.
///
/// No user code ever runs while one is held, and none is taken on the resolve hot path.
struct RawMutex {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// The mutex at `mutex`, which ``initialize(_:)`` has set up.
  init(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
    self.mutex = mutex
  }

  /// Sets up a mutex in uninitialised memory.
  static func initialize(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
    mutex.initialize(to: pthread_mutex_t())
    var attributes = pthread_mutexattr_t()
    check(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
    #if DEBUG
      check(
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)),
        "pthread_mutexattr_settype")
    #elseif canImport(Glibc)
      check(pthread_mutexattr_settype(&attributes, adaptiveMutexType), "pthread_mutexattr_settype")
    #endif
    check(pthread_mutex_init(mutex, &attributes), "pthread_mutex_init")
    check(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
  }

  /// Tears down a mutex that no thread holds, leaving its memory uninitialised.
  static func destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
    check(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
    mutex.deinitialize(count: 1)
  }

  @inline(__always)
  func lock() {
    let code = pthread_mutex_lock(mutex)
    if code != 0 { Self.fail(code, "pthread_mutex_lock") }
  }

  @inline(__always)
  func unlock() {
    let code = pthread_mutex_unlock(mutex)
    if code != 0 { Self.fail(code, "pthread_mutex_unlock") }
  }

  /// Runs `body` while holding the mutex.
  @inline(__always)
  func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
    -> Result
  {
    lock()
    defer { unlock() }
    return try body()
  }

  @inline(__always)
  private static func check(_ code: Int32, _ call: StaticString) {
    if code != 0 { fail(code, call) }
  }

  @inline(never)
  private static func fail(_ code: Int32, _ call: StaticString) -> Never {
    // EDEADLK from an error-checking mutex: a thread took a lock it holds already.
    preconditionFailure("\(call) failed with error \(code)")
  }
}

#if canImport(Glibc)
  /// `PTHREAD_MUTEX_ADAPTIVE_NP` of glibc's `<pthread.h>`, which the Glibc module does not
  /// import.
  private let adaptiveMutexType: Int32 = 3
#endif
