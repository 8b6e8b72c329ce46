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
/// Keys are cheap values: create them where they are needed, or keep them in `static let`s.
public struct ServiceKey<Value: Sendable>: Hashable, Sendable, CustomStringConvertible {
  /// The name that tells apart several registrations of the same type, or `nil` for the
  /// type's unnamed registration.
  public let name: String?

  /// Creates a key for a service of type `Value`.
  ///
  /// - Parameters:
  ///   - type: The value's type; it may be left out where the compiler can infer it.
  ///   - name: A name that tells apart several registrations of one type.
  public init(_ type: Value.Type = Value.self, name: String? = nil) {
    self.name = name
  }

  /// How the key is shown in errors and reports: the type, then the name in brackets.
  public var description: String { erased.description }

  var erased: AnyServiceKey { AnyServiceKey(Value.self, name: name) }
}

/// A service key with its value type erased, used for graph edges, errors and reports.
struct AnyServiceKey: Hashable, Sendable, CustomStringConvertible {
  let typeID: ObjectIdentifier
  let type: Any.Type
  let name: String?

  init(_ type: Any.Type, name: String?) {
    self.typeID = ObjectIdentifier(type)
    self.type = type
    self.name = name
  }

  static func == (lhs: AnyServiceKey, rhs: AnyServiceKey) -> Bool {
    lhs.typeID == rhs.typeID && lhs.name == rhs.name
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(typeID)
    hasher.combine(name)
  }

  var description: String {
    let typeName = String(describing: type)
    guard let name else { return typeName }
    return "\(typeName)[\"\(name)\"]"
  }
}
