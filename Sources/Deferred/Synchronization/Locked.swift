#if canImport(Darwin)
  import os
#else
  import Synchronization
#endif

/// State behind a lock: `OSAllocatedUnfairLock` on Apple platforms, which lends a waiting
/// thread's priority to the owner (the main thread waiting on a `.utility` owner is the
/// inversion a launch library exists to prevent); the standard library's `Mutex` elsewhere.
/// Either traps when a thread takes the lock it holds.
///
/// The state is only ever reached through ``withLock(_:)``, under the lock, and is `Sendable`:
/// what goes in and comes out may cross threads. Copies share the lock and the state.
///
/// ```swift
/// let seen = Locked<[String]>([])
/// seen.withLock { $0.append("a") }
/// ```
package struct Locked<State: Sendable>: Sendable {
  #if canImport(Darwin)
    private let lock: OSAllocatedUnfairLock<State>

    /// Creates the lock around `state`.
    package init(_ state: consuming sending State) {
      lock = OSAllocatedUnfairLock(initialState: state)
    }

    /// Runs `body` with the state, under the lock.
    @inline(__always)
    package func withLock<Result, Failure: Error>(
      _ body: (inout sending State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
      // Unchecked: `body` is not `@Sendable` nor its result `Sendable`; it runs on this
      // thread, before the call returns, as the checked form's would.
      try lock.withLockUnchecked { state in
        Swift.Result { () throws(Failure) -> Result in try body(&state) }
      }.get()
    }
  #else
    private let storage: Storage

    /// Creates the lock around `state`.
    package init(_ state: consuming sending State) {
      storage = Storage(state)
    }

    /// Runs `body` with the state, under the lock.
    @inline(__always)
    package func withLock<Result, Failure: Error>(
      _ body: (inout sending State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
      try storage.mutex.withLock { (state: inout sending State) throws(Failure) -> sending Result in
        try body(&state)
      }
    }

    /// The mutex, in an object that copies share.
    private final class Storage: Sendable {
      let mutex: Mutex<State>

      init(_ state: consuming sending State) {
        mutex = Mutex(state)
      }
    }
  #endif
}
