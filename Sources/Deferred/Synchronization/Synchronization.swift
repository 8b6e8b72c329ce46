#if canImport(Darwin)
  import CDeferredSync
  import os
#elseif canImport(Glibc)
  import Glibc
  import Synchronization
#elseif canImport(Musl)
  import Musl
  import Synchronization
#endif

// MARK: - Locks

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
    func withLock<Result>(_ body: () -> Result) -> Result {
      let lock = Self.pool.lock(index)
      Self.willTake()
      os_unfair_lock_lock(lock)
      defer {
        os_unfair_lock_unlock(lock)
        Self.didRelease()
      }
      return body()
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
    func withLock<Result>(_ body: () -> Result) -> Result {
      Self.willTake()
      defer { Self.didRelease() }
      return mutex.withLock { _ -> sending Result in
        order.enter()
        defer { order.leave() }
        return body()
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

// MARK: - Atomics

/// An atomic 64-bit word.
///
/// On Linux it is the standard library's `Atomic<UInt64>`, inline in whatever holds it. On
/// Apple platforms, where `Atomic` needs iOS 18 / macOS 15, it is a word this value allocates
/// and frees, each access one C11 atomic operation of the C target `CDeferredSync`: Swift gives
/// a stored property no stable address of its own before `Atomic`.
///
/// The ordering is in each method's name: there is no parameter to pass and ignore.
struct AtomicWord: ~Copyable, Sendable {
  #if canImport(Darwin)
    // Safety (Docs/Design.md, "Memory safety"): allocated here, freed in `deinit`, reached only
    // through the C target's atomic operations, so the value may cross threads.
    private nonisolated(unsafe) let word: UnsafeMutablePointer<UInt64>

    init(_ value: UInt64 = 0) {
      word = .allocate(capacity: 1)
      word.initialize(to: value)
    }

    deinit {
      word.deallocate()
    }

    @inline(__always) func loadRelaxed() -> UInt64 { cds_load_relaxed(word) }
    @inline(__always) func loadAcquire() -> UInt64 { cds_load_acquire(word) }
    @inline(__always) func storeRelaxed(_ value: UInt64) { cds_store_relaxed(word, value) }
    @inline(__always) func storeRelease(_ value: UInt64) { cds_store_release(word, value) }

    /// Adds `value`, wrapping, with relaxed ordering; returns the old value.
    @inline(__always) @discardableResult
    func fetchAddRelaxed(_ value: UInt64) -> UInt64 { cds_fetch_add_relaxed(word, value) }

    /// Sets `bits`, with acquire-release ordering; returns the old value.
    @discardableResult @inline(__always)
    func setBits(_ bits: UInt64) -> UInt64 { cds_fetch_or(word, bits) }

    /// Replaces `expected` by `desired`, with acquire-release ordering, if the word holds
    /// `expected`; returns whether it did, and the value it held.
    @inline(__always)
    func compareExchange(expected: UInt64, desired: UInt64) -> (exchanged: Bool, original: UInt64) {
      var original = expected
      let exchanged = cds_compare_exchange(word, &original, desired)
      return (exchanged, original)
    }
  #else
    private let word: Atomic<UInt64>

    init(_ value: UInt64 = 0) {
      word = Atomic(value)
    }

    @inline(__always) func loadRelaxed() -> UInt64 { word.load(ordering: .relaxed) }
    @inline(__always) func loadAcquire() -> UInt64 { word.load(ordering: .acquiring) }
    @inline(__always) func storeRelaxed(_ value: UInt64) { word.store(value, ordering: .relaxed) }
    @inline(__always) func storeRelease(_ value: UInt64) {
      word.store(value, ordering: .releasing)
    }

    /// Adds `value`, wrapping, with relaxed ordering; returns the old value.
    @inline(__always) @discardableResult
    func fetchAddRelaxed(_ value: UInt64) -> UInt64 {
      word.wrappingAdd(value, ordering: .relaxed).oldValue
    }

    /// Sets `bits`, with acquire-release ordering; returns the old value.
    @discardableResult @inline(__always)
    func setBits(_ bits: UInt64) -> UInt64 {
      word.bitwiseOr(bits, ordering: .acquiringAndReleasing).oldValue
    }

    /// Replaces `expected` by `desired`, with acquire-release ordering, if the word holds
    /// `expected`; returns whether it did, and the value it held.
    @inline(__always)
    func compareExchange(expected: UInt64, desired: UInt64) -> (exchanged: Bool, original: UInt64) {
      word.compareExchange(
        expected: expected, desired: desired, successOrdering: .acquiringAndReleasing,
        failureOrdering: .acquiring)
    }
  #endif

  /// Adds `value`, wrapping, with relaxed ordering.
  @inline(__always) func addRelaxed(_ value: UInt64) { fetchAddRelaxed(value) }
}

/// A reference to an object, set once, that readers load without a lock: set with release
/// ordering, read with acquire ordering, so a reader sees the object as it was made.
///
/// It holds one strong reference to its object from the moment it is set until it goes; the
/// object is never replaced, so a reader that has loaded its address can always retain it.
///
/// Safety (Docs/Design.md, "Memory safety"): an object's address in an ``AtomicWord`` turned
/// back into a reference (`Unmanaged`). The standard library's `AtomicLazyReference` does the
/// same, but needs iOS 18; one implementation serves every platform, so that the tests and
/// sanitizers on Linux exercise the code Apple platforms run.
struct AtomicReference<Object: AnyObject>: ~Copyable, Sendable {
  private let word = AtomicWord()

  init() {}

  deinit {
    if let object = Self.unmanaged(word.loadAcquire()) { object.release() }
  }

  /// The object, retained, or `nil` if none is set.
  @inline(__always)
  func load() -> Object? {
    Self.unmanaged(word.loadAcquire())?.takeUnretainedValue()
  }

  /// Whether an object is set.
  @inline(__always)
  var isSet: Bool { word.loadAcquire() != 0 }

  /// Sets `object` if none is set; returns the object set before, retained, if there was one
  /// (`object` is then not set).
  func setIfUnset(_ object: Object) -> Object? {
    let new = Unmanaged.passRetained(object)
    let (exchanged, old) = word.compareExchange(expected: 0, desired: Self.bits(new))
    if exchanged { return nil }
    new.release()
    return Self.unmanaged(old)?.takeUnretainedValue()
  }

  @inline(__always)
  fileprivate static func unmanaged(_ bits: UInt64) -> Unmanaged<Object>? {
    UnsafeRawPointer(bitPattern: UInt(truncatingIfNeeded: bits)).map {
      Unmanaged<Object>.fromOpaque($0)
    }
  }

  @inline(__always)
  fileprivate static func bits(_ object: Unmanaged<Object>?) -> UInt64 {
    UInt64(UInt(bitPattern: object?.toOpaque()))
  }
}

/// A reference to an object that readers load without a lock and its owner replaces: stored
/// with release ordering, read with acquire ordering.
///
/// A reader loads the object's address, then retains it: an object replaced in between must
/// still be alive. So the reference keeps every object it has held, until it goes itself;
/// replacing hands nothing back for the caller to keep. It suits an object replaced rarely,
/// as a container's lookup table is (a new one only once the live table has twice the keys).
///
/// Safety (Docs/Design.md, "Memory safety"): as ``AtomicReference``, an object's address in an
/// ``AtomicWord`` turned back into a reference (`Unmanaged`).
struct PublishedReference<Object: AnyObject & Sendable>: ~Copyable, Sendable {
  private let word = AtomicWord()
  /// Every object stored, the current one last: each holds the reference a reader may be about
  /// to take.
  private let stored = Locked<[Object]>([])

  init() {}

  /// The object, retained, or `nil` if none is set.
  @inline(__always)
  func load() -> Object? {
    AtomicReference<Object>.unmanaged(word.loadAcquire())?.takeUnretainedValue()
  }

  /// Stores `object` (or none) in place of the current one, which stays alive as long as the
  /// reference.
  func store(_ object: Object?) {
    if let object { stored.withLock { $0.append(object) } }
    let new = object.map { Unmanaged.passUnretained($0) }
    word.storeRelease(AtomicReference<Object>.bits(new))
  }
}
