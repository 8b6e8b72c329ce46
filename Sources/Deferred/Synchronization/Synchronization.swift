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

/// `Sendable` state reached only through ``withLock(_:)``: an `OSAllocatedUnfairLock` on Apple
/// platforms (it lends a waiter's priority to the owner), the standard `Mutex` elsewhere. Either
/// traps when a thread takes the lock it holds. Copies share the lock and the state.
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
      // Unchecked: `body` is not `@Sendable`, but it runs on this thread, before the return.
      try lock.withLockUnchecked { state in
        Swift.Result { () throws(Failure) -> Result in try body(&state) }
      }.get()
    }
  #else
    private let storage: Storage

    package init(_ state: consuming sending State) {
      storage = Storage(state)
    }

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
  /// The order a `Mutex` gives its holders, shown to ThreadSanitizer: on Linux a contended
  /// `Mutex` is handed over inside the kernel, where ThreadSanitizer sees no order between one
  /// holder and the next and reports races. An acquire load after taking the lock and a
  /// release store before leaving it make the order visible.
  struct SanitizerOrder: ~Copyable, Sendable {
    private let word = Atomic<UInt8>(0)

    init() {}

    /// Called first thing under the lock.
    @inline(__always) func enter() { _ = word.load(ordering: .acquiring) }
    /// Called last thing under the lock.
    @inline(__always) func leave() { word.store(0, ordering: .releasing) }
  }
#endif

/// A node's lock, held for a few field updates: never around user code, never while the
/// thread holds another node's lock (debug builds trap if it does).
///
/// On Linux, a `Mutex` inline in the node. On Apple platforms (`Mutex` needs iOS 18), nodes
/// share a fixed pool of `os_unfair_lock`s, handed out in turn: as no thread holds two, sharing
/// costs at most a brief wait.
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

    /// 64 `os_unfair_lock`s, one per cache line, allocated once and never freed.
    ///
    /// Safety (Docs/Design.md, "Memory safety"): `@unchecked Sendable` as the memory is reached
    /// only through `os_unfair_lock_lock`/`unlock`, from any thread, and lives as long as the
    /// process.
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
  /// Traps, in debug builds, if the calling thread holds a node lock (two nodes may share one,
  /// and a lock order between nodes would be one more thing to keep right); then notes it does.
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

  /// Whether the calling thread holds a node lock; always `false` in release builds.
  static var isHeldByCurrentThread: Bool {
    #if DEBUG
      HeldMark.isSet
    #else
      false
    #endif
  }
}

#if DEBUG
  /// A thread-specific mark, non-nil while the thread holds a node lock (debug builds only).
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

/// An atomic 64-bit word; each method's name says its ordering.
///
/// On Linux, the standard `Atomic<UInt64>`. On Apple platforms (`Atomic` needs iOS 18), a word
/// this value allocates, each access a C11 atomic operation of `CDeferredSync`: before
/// `Atomic`, a Swift stored property has no stable address.
struct AtomicWord: ~Copyable, Sendable {
  #if canImport(Darwin)
    // Safety (Docs/Design.md, "Memory safety"): allocated here, freed in `deinit`, reached
    // only through the C atomic operations.
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
    @inline(__always) func storeRelease(_ value: UInt64) {
      word.store(value, ordering: .releasing)
    }

    @inline(__always) @discardableResult
    func fetchAddRelaxed(_ value: UInt64) -> UInt64 {
      word.wrappingAdd(value, ordering: .relaxed).oldValue
    }

    @discardableResult @inline(__always)
    func setBits(_ bits: UInt64) -> UInt64 {
      word.bitwiseOr(bits, ordering: .acquiringAndReleasing).oldValue
    }

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

/// A reference to an object, set once (release) and loaded without a lock (acquire). It holds
/// its object until it goes, and never replaces it, so a loaded address can always be retained.
///
/// Safety (Docs/Design.md, "Memory safety"): an object's address in an ``AtomicWord``, turned
/// back into a reference (`Unmanaged`). `AtomicLazyReference` needs iOS 18; one implementation
/// for every platform lets the Linux tests and sanitizers run the code Apple platforms run.
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

/// A reference to an object that readers load without a lock (acquire) and its owner replaces
/// (release). A reader retains what it loaded after the load, so the reference keeps every
/// object it held until it goes: for rarely replaced objects, as a container's lookup table.
///
/// Safety (Docs/Design.md, "Memory safety"): as ``AtomicReference``.
struct PublishedReference<Object: AnyObject & Sendable>: ~Copyable, Sendable {
  private let word = AtomicWord()
  /// Every object stored, the current one last, alive for readers that loaded it.
  private let stored = Locked<[Object]>([])

  init() {}

  /// The object, retained, or `nil` if none is set.
  @inline(__always)
  func load() -> Object? {
    AtomicReference<Object>.unmanaged(word.loadAcquire())?.takeUnretainedValue()
  }

  /// Stores `object` (or none); the current one stays alive as long as the reference.
  func store(_ object: Object?) {
    if let object { stored.withLock { $0.append(object) } }
    let new = object.map { Unmanaged.passUnretained($0) }
    word.storeRelease(AtomicReference<Object>.bits(new))
  }
}
