#if canImport(Darwin)
  import CDeferredSync
#else
  import Synchronization
#endif

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
