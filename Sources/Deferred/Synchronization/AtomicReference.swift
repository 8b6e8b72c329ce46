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
