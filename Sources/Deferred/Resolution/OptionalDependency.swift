/// A dependency of optional type, `Wrapped?` (`init(settings: Settings, user: User?)`): the
/// service registered for `Wrapped` under the same name, an edge like any other, or `nil` if
/// nothing is registered for it (then ``Container/validate()`` does not report it missing).
///
/// It is recognised, by a cast to this protocol, only where a look-up of its key finds nothing.
protocol OptionalDependency {
  /// The type the optional wraps.
  static var wrappedType: Any.Type { get }

  /// The service registered for `Wrapped` under `name`, built if need be, or `nil`.
  static func resolveWrapped(
    in container: Container, name: String?, context: BuildContext?
  ) throws(DeferredError) -> Self
}

extension Optional: OptionalDependency {
  static var wrappedType: Any.Type { Wrapped.self }

  static func resolveWrapped(
    in container: Container, name: String?, context: BuildContext?
  ) throws(DeferredError) -> Wrapped? {
    let key = ServiceKey<Wrapped>(name: name)
    guard container.isRegistered(key.erased) else { return nil }
    return try container.resolve(key, context: context)
  }
}

extension AnyServiceKey {
  /// For a key of `Wrapped?`, the key of `Wrapped` under the same name; `nil` for any other.
  var wrappedKey: AnyServiceKey? {
    guard let optional = type as? any OptionalDependency.Type else { return nil }
    return AnyServiceKey(optional.wrappedType, name: name, nameHash: nameHash)
  }
}

extension Container {
  /// Whether something is registered for `key` (or the type an optional key wraps), or it is an
  /// array, which is empty when nothing was contributed.
  func isRegistered(_ key: AnyServiceKey) -> Bool {
    lookup(dependency: key) != nil || key.isCollection
  }

  /// The node a declared dependency `key` leads to: the key's own; for an optional dependency
  /// nothing is registered for, the wrapped type's; `nil` if neither is registered.
  @inline(__always)
  func lookup(dependency key: AnyServiceKey) -> AnyNode? {
    if let node = lookup(key) { return node }
    return lookupWrapped(key)
  }

  /// The node of the type an optional `key` wraps (through any depth of optionals), or `nil`.
  @inline(never)
  func lookupWrapped(_ key: AnyServiceKey) -> AnyNode? {
    guard let wrapped = key.wrappedKey else { return nil }
    return lookup(dependency: wrapped)
  }

  /// The key a declared dependency `key` is an edge to: the key of the node it leads to
  /// (``lookup(dependency:)``), or `key` itself if nothing is registered for it.
  func edge(to key: AnyServiceKey) -> AnyServiceKey {
    if lookup(key) != nil { return key }
    return lookupWrapped(key)?.key ?? key
  }

  /// The value of an optional dependency `Value` (`Wrapped?`) whose own key is not registered:
  /// `Wrapped`'s service, or `nil` as the value. `nil` as the result if `Value` is not optional.
  @inline(never)
  func optionalDependency<Value>(
    _ key: ServiceKey<Value>, context: BuildContext?
  ) throws(DeferredError) -> Value? {
    guard let optional = Value.self as? any OptionalDependency.Type else { return nil }
    func resolve<Wrapping: OptionalDependency>(_: Wrapping.Type) throws(DeferredError) -> Value {
      // `Wrapping` is `Value`: the cast cannot fail.
      try Wrapping.resolveWrapped(in: self, name: key.name, context: context) as! Value
    }
    return try resolve(optional)
  }
}
