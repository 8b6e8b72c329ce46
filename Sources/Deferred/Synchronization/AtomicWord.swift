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
