/// Identifies a service in a ``Container`` and carries the type of its value.
///
/// A key is the value's type, plus a name where one type has several registrations. Because the
/// key carries the type, resolving never needs a cast:
///
/// ```swift
/// let cache = ServiceKey<Storage>(name: "cache")
/// try container.register(cache) { MemoryStorage() }
/// let storage: Storage = try container.resolve(cache)
/// ```
///
/// Keys are cheap values, equal when their names are: create them where they are needed, or
/// keep them in `static let`s.
public struct ServiceKey<Value>: Hashable, Sendable, CustomStringConvertible {
  /// The name that tells apart several registrations of the same type, or `nil` for the
  /// type's unnamed registration.
  public let name: String?
  /// The name's hash for lookups, made once with the key (0 for no name).
  @usableFromInline let nameHash: UInt

  /// Creates a key for a service of type `Value`.
  ///
  /// - Parameters:
  ///   - type: The value's type; it may be left out where the compiler can infer it.
  ///   - name: A name that tells apart several registrations of one type.
  public init(_ type: Value.Type = Value.self, name: String? = nil) {
    self.name = name
    self.nameHash = lookupHash(of: name)
  }

  /// The key of the unnamed registration of `Value`, its type taken from the factory's
  /// parameter: for the dependencies a keyed registration does not name.
  ///
  /// ```swift
  /// let sqlite = ServiceKey<Persistence>(name: "sqlite")
  /// try container.register(
  ///   .byType, dependencies: .byType, sqlite, .byType, factory: Pool.init(factory:sqlite:ids:))
  /// ```
  public static var byType: ServiceKey { ServiceKey() }

  /// How the key is shown in errors and reports: the type, then the name in brackets.
  public var description: String { erased.description }

  var erased: AnyServiceKey {
    @inline(__always) get { AnyServiceKey(Value.self, name: name, nameHash: nameHash) }
  }

  /// A key whose name's hash is known already.
  @inline(__always)
  init(name: String?, nameHash: UInt) {
    self.name = name
    self.nameHash = nameHash
  }

  /// The key of `erased`, whose type must be `Value`, reusing its name's hash.
  init(_ erased: AnyServiceKey) {
    assert(erased.type == Value.self, "\(erased) taken as a key of \(Value.self)")
    self.name = erased.name
    self.nameHash = erased.nameHash
  }
}

/// A service key with its value type erased, used for graph edges, errors and reports.
struct AnyServiceKey: Hashable, Sendable, CustomStringConvertible {
  let type: Any.Type
  let name: String?
  /// The name's hash for lookups (``lookupHash(of:)``), made once with the key.
  let nameHash: UInt

  /// The type's identity: its metadata's address, `type`'s bits, so not stored.
  var typeID: ObjectIdentifier {
    @inline(__always) get { ObjectIdentifier(type) }
  }

  @inline(__always)
  init(_ type: Any.Type, name: String?, nameHash: UInt? = nil) {
    self.type = type
    self.name = name
    self.nameHash = nameHash ?? lookupHash(of: name)
  }

  static func == (lhs: AnyServiceKey, rhs: AnyServiceKey) -> Bool {
    lhs.typeID == rhs.typeID && lhs.name == rhs.name
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(typeID)
    hasher.combine(name)
  }

  var description: String {
    if let described = type as? any DescribedKeyType.Type {
      return described.keyDescription(name: name)
    }
    let typeName = String(describing: type)
    guard let name else { return typeName }
    return "\(typeName)[\"\(name)\"]"
  }
}

/// A name's hash for the lookup table, 0 for no name. `Hasher` hashes a string's canonical
/// form, so names that are equal strings (`"caf\u{E9}"`, `"cafe\u{301}"`) hash alike.
@inlinable @inline(__always)
func lookupHash(of name: String?) -> UInt {
  guard let name else { return 0 }
  return lookupHash(ofName: name)
}

/// ``lookupHash(of:)`` of a name, out of line, so that callers inline only the unnamed case.
@usableFromInline @inline(never)
func lookupHash(ofName name: String) -> UInt {
  var hasher = Hasher()
  hasher.combine(name)
  return UInt(bitPattern: hasher.finalize())
}
