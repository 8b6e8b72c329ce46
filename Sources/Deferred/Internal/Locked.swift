#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// State behind a `pthread_mutex_t`.
///
/// `Synchronization.Mutex` would do on its own, but on Linux its contended path runs through
/// futex system calls inside the uninstrumented standard library, which ThreadSanitizer cannot
/// see: under contention every access it guards is then reported as a race. A pthread mutex is
/// intercepted by ThreadSanitizer, so `--sanitize=thread` stays meaningful. No lock is ever
/// taken on the resolve hot path, and no user code runs under one.
package final class Locked<State>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var state: State

  /// Creates the lock around `state`.
  package init(_ state: State) {
    self.state = state
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with the state, under the lock.
  @inline(__always)
  package func withLock<Result, Failure: Error>(
    _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state)
  }
}
