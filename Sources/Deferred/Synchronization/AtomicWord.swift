import CDeferredSync

/// An atomic 64-bit word.
///
/// The word lives in memory the C target owns (`CDeferredSync`), reached by its index: Swift
/// has no stable address for a stored property before `Synchronization` (iOS 18), and every
/// access here is one C11 atomic operation, which ThreadSanitizer understands. Making one
/// allocates nothing for the first few thousand words of a process.
///
/// The ordering is in each method's name: there is no parameter to pass and ignore.
struct AtomicWord: ~Copyable, Sendable {
  private let word: cds_word

  init(_ value: UInt64 = 0) {
    word = cds_word_make()
    if value != 0 { cds_word_store_relaxed(word, value) }
  }

  deinit {
    cds_word_free(word)
  }

  @inline(__always) func loadRelaxed() -> UInt64 { cds_word_load_relaxed(word) }
  @inline(__always) func loadAcquire() -> UInt64 { cds_word_load_acquire(word) }
  @inline(__always) func storeRelaxed(_ value: UInt64) { cds_word_store_relaxed(word, value) }
  @inline(__always) func storeRelease(_ value: UInt64) { cds_word_store_release(word, value) }

  /// Adds `value`, wrapping, with relaxed ordering.
  @inline(__always) func addRelaxed(_ value: UInt64) { _ = cds_word_add_relaxed(word, value) }

  /// Adds `value`, wrapping, with relaxed ordering; returns the old value.
  @inline(__always)
  func fetchAddRelaxed(_ value: UInt64) -> UInt64 { cds_word_add_relaxed(word, value) }

  /// Sets `bits`, with acquire-release ordering; returns the old value.
  @discardableResult @inline(__always)
  func setBits(_ bits: UInt64) -> UInt64 { cds_word_or(word, bits) }

  /// Clears `bits`, with acquire-release ordering; returns the old value.
  @discardableResult @inline(__always)
  func clearBits(_ bits: UInt64) -> UInt64 { cds_word_and(word, ~bits) }

  /// Replaces `expected` by `desired`, with acquire-release ordering, if the word holds
  /// `expected`; returns whether it did, and the value it held.
  @inline(__always)
  func compareExchange(expected: UInt64, desired: UInt64) -> (exchanged: Bool, original: UInt64) {
    var original = expected
    let exchanged = cds_word_compare_exchange(word, &original, desired)
    return (exchanged, original)
  }

  /// Raises the word to `value` if it holds less, with relaxed ordering.
  @inline(__always)
  func raise(to value: UInt64) {
    var seen = loadRelaxed()
    while value > seen {
      let (exchanged, original) = compareExchange(expected: seen, desired: value)
      if exchanged { return }
      seen = original
    }
  }
}

/// A reference to an object that readers load without a lock: set with release ordering, read
/// with acquire ordering, so a reader sees the object as it was made.
///
/// The word holds one strong reference to the object it points to, released when the
/// reference is replaced (the old one is handed back) or destroyed. A reader's load retains
/// the object it finds; its owner must keep a replaced object alive for as long as a reader
/// may be between loading its address and retaining it (a built value is never replaced; a
/// lookup snapshot is kept by its container).
///
/// Safety (Docs/Design.md, "Memory safety"): the only place where an object's address is
/// turned into a reference and back.
struct AtomicReference<Object: AnyObject>: ~Copyable, Sendable {
  private let word = cds_word_make()

  init() {}

  deinit {
    if let raw = cds_word_load_pointer(word) { Unmanaged<Object>.fromOpaque(raw).release() }
    cds_word_free(word)
  }

  /// The object, retained, or `nil` if none is set.
  @inline(__always)
  func load() -> Object? {
    guard let raw = cds_word_load_pointer(word) else { return nil }
    return Unmanaged<Object>.fromOpaque(raw).takeUnretainedValue()
  }

  /// Whether an object is set.
  @inline(__always)
  var isSet: Bool { cds_word_load_pointer(word) != nil }

  /// Sets `object` if none is set; returns the object set before, retained, if there was one
  /// (`object` is then not set).
  func setIfUnset(_ object: Object) -> Object? {
    let new = Unmanaged.passRetained(object)
    guard let old = cds_word_store_pointer_if_null(word, new.toOpaque()) else { return nil }
    new.release()
    return Unmanaged<Object>.fromOpaque(old).takeUnretainedValue()
  }

  /// Sets the object; returns the one it replaces, which the caller keeps alive as long as
  /// readers may hold its address.
  @discardableResult
  func exchange(_ object: Object?) -> Object? {
    let new = object.map { Unmanaged.passRetained($0).toOpaque() }
    guard let old = cds_word_exchange_pointer(word, new) else { return nil }
    return Unmanaged<Object>.fromOpaque(old).takeRetainedValue()
  }
}
