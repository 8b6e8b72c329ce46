#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// State behind a `pthread_mutex_t`, both in one allocation.
///
/// `Synchronization.Mutex` would do on its own, but on Linux its contended path runs through
/// futex system calls inside the uninstrumented standard library, which ThreadSanitizer cannot
/// see: under contention every access it guards is then reported as a race. A pthread mutex is
/// intercepted by ThreadSanitizer, so `--sanitize=thread` stays meaningful. No lock is ever
/// taken on the resolve hot path, and no user code runs under one.
package struct Locked<State>: @unchecked Sendable {
  private let storage: LockStorage<State>

  /// Creates the lock around `state`.
  package init(_ state: State) {
    storage = LockStorage.make(state)
  }

  /// Runs `body` with the state, under the lock.
  @inline(__always)
  package func withLock<Result, Failure: Error>(
    _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try storage.withUnsafeMutablePointers { (state, mutex) throws(Failure) -> Result in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&state.pointee)
    }
  }
}

/// The state, with the mutex as its one tail-allocated element.
private final class LockStorage<State>: ManagedBuffer<State, pthread_mutex_t> {
  static func make(_ state: State) -> LockStorage<State> {
    let buffer = create(minimumCapacity: 1) { _ in state }
    buffer.withUnsafeMutablePointerToElements { mutex in
      mutex.initialize(to: pthread_mutex_t())
      initializeMutex(mutex)
    }
    return unsafeDowncast(buffer, to: LockStorage<State>.self)
  }

  // ManagedBuffer destroys the header (the state) itself; the element is ours to destroy.
  deinit {
    withUnsafeMutablePointerToElements { mutex in
      pthread_mutex_destroy(mutex)
      mutex.deinitialize(count: 1)
    }
  }
}

/// Initialises a mutex for short critical sections: on Linux an adaptive one, which spins a
/// little before it sleeps (a default glibc mutex sleeps in the kernel at once, and two threads
/// taking turns at a lock held for a few field updates would switch contexts each time).
func initializeMutex(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
  #if canImport(Glibc)
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    // PTHREAD_MUTEX_ADAPTIVE_NP, which the Glibc module does not import.
    pthread_mutexattr_settype(&attributes, 3)
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  #else
    pthread_mutex_init(mutex, nil)
  #endif
}
