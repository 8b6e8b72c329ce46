#if canImport(Darwin)
  import os
#elseif canImport(Glibc)
  import Glibc
  import Synchronization
#elseif canImport(Musl)
  import Musl
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

/// A node's lock, held for a few field updates of its state: never around user code, and
/// never while the thread holds another node's lock (in debug builds, taking one then traps).
///
/// On Linux each node has its own: the standard library's `Mutex`, four bytes inline in the
/// node. On Apple platforms, where `Mutex` needs iOS 18 and an `OSAllocatedUnfairLock` would
/// cost each node an allocation, nodes share a fixed pool of `os_unfair_lock`s (each lends a
/// waiting thread's priority to the owner), handed out in turn as nodes are made: as no thread
/// holds two, sharing one costs at most a rare brief wait.
struct NodeLock: ~Copyable, Sendable {
  #if canImport(Darwin)
    /// The pool lock this one is.
    private let index: UInt32

    init() {
      index = UInt32(truncatingIfNeeded: Self.pool.next.fetchAddRelaxed(1))
    }

    /// Runs `body` holding the lock.
    @inline(__always)
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
      -> Result
    {
      let lock = Self.pool.lock(index)
      Self.willTake()
      os_unfair_lock_lock(lock)
      defer {
        os_unfair_lock_unlock(lock)
        Self.didRelease()
      }
      return try body()
    }

    private static let pool = Pool()

    /// 64 `os_unfair_lock`s, each on a cache line of its own so that threads taking different
    /// locks do not slow each other down, in memory allocated once and never freed.
    ///
    /// Safety (Docs/Design.md, "Memory safety"): `@unchecked Sendable` because the memory is
    /// only ever reached through `os_unfair_lock_lock` and `os_unfair_lock_unlock`, which
    /// expect to be called from any thread, and it lives as long as the process.
    private final class Pool: @unchecked Sendable {
      let next = AtomicWord()
      private let base: UnsafeMutableRawPointer
      private static let count = 64
      private static let stride = 64

      init() {
        base = .allocate(byteCount: Self.count * Self.stride, alignment: Self.stride)
        for index in 0..<Self.count {
          (base + index * Self.stride).initializeMemory(
            as: os_unfair_lock.self, repeating: os_unfair_lock(), count: 1)
        }
      }

      @inline(__always)
      func lock(_ index: UInt32) -> os_unfair_lock_t {
        (base + Int(index % UInt32(Self.count)) * Self.stride).assumingMemoryBound(
          to: os_unfair_lock.self)
      }
    }
  #else
    private let mutex = Mutex<Void>(())
    private let order = SanitizerOrder()

    init() {}

    /// Runs `body` holding the lock.
    @inline(__always)
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
      -> Result
    {
      Self.willTake()
      defer { Self.didRelease() }
      return try mutex.withLock { _ throws(Failure) -> sending Result in
        order.enter()
        defer { order.leave() }
        return try body()
      }
    }
  #endif
}

extension NodeLock {
  /// Traps, in debug builds, if the calling thread holds a node lock; then notes that it does.
  ///
  /// Two node locks are never held at once: on Apple platforms two nodes may share one, and a
  /// thread taking the one it holds stops the process; and an order between nodes' locks would
  /// be one more thing to keep right.
  @inline(__always)
  static func willTake() {
    #if DEBUG
      precondition(
        !isHeldByCurrentThread,
        "Deferred: a thread took a node's lock while it held one; node locks are never nested")
      HeldMark.set(true)
    #endif
  }

  /// Notes, in debug builds, that the calling thread holds no node lock any more.
  @inline(__always)
  static func didRelease() {
    #if DEBUG
      HeldMark.set(false)
    #endif
  }

  /// Whether the calling thread holds a node lock; in release builds, which do not track it,
  /// always `false`.
  static var isHeldByCurrentThread: Bool {
    #if DEBUG
      HeldMark.isSet
    #else
      false
    #endif
  }
}

#if DEBUG
  /// The mark of a thread that holds a node lock: a thread-specific value, non-nil while it
  /// holds one. Debug builds only.
  private enum HeldMark {
    private static let key: pthread_key_t = {
      var key = pthread_key_t()
      pthread_key_create(&key, nil)
      return key
    }()

    static var isSet: Bool { pthread_getspecific(key) != nil }

    /// Sets or clears the mark; the value stored is a marker, never dereferenced.
    static func set(_ held: Bool) {
      pthread_setspecific(key, held ? UnsafeRawPointer(bitPattern: 1) : nil)
    }
  }
#endif
