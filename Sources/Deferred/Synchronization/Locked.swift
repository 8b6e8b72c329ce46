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
        storage.order.enter()
        defer { storage.order.leave() }
        return try body(&state)
      }
    }

    /// The mutex, in an object that copies share.
    private final class Storage: Sendable {
      let mutex: Mutex<State>
      let order = SanitizerOrder()

      init(_ state: consuming sending State) {
        mutex = Mutex(state)
      }
    }
  #endif
}

#if !canImport(Darwin)
  /// The order a `Mutex` gives its holders, shown to ThreadSanitizer.
  ///
  /// On Linux, `Mutex` hands a contended lock over inside the kernel (a priority-inheritance
  /// futex, from a library ThreadSanitizer does not instrument), so ThreadSanitizer sees no
  /// order between one holder's accesses and the next one's and reports them as races. An
  /// acquire load after taking the lock and a release store before leaving it give it that
  /// order; they are plain moves on x86-64.
  struct SanitizerOrder: ~Copyable, Sendable {
    private let word = Atomic<UInt8>(0)

    init() {}

    /// Called first thing under the lock.
    @inline(__always) func enter() { _ = word.load(ordering: .acquiring) }
    /// Called last thing under the lock.
    @inline(__always) func leave() { word.store(0, ordering: .releasing) }
  }
#endif
