/// A dependency of optional type, `Wrapped?`: the service registered for `Wrapped` (under the
/// same name) if there is one, `nil` if nothing is registered for it.
///
/// A factory declares one by its parameter's type (`init(settings: Settings, user: User?)`),
/// so it is an edge like any other once `Wrapped` is registered: built first, ordered, checked
/// for cycles and followed by advice. When nothing is registered for `Wrapped`,
/// ``Container/validate()`` does not report it missing and the factory is given `nil`.
///
/// Nothing is ever registered for the optional type itself, so an optional dependency is
/// recognised where a look-up of its key finds nothing, by a cast to this protocol there: a
/// registration or a resolve of a registered service does no work for it.
protocol OptionalDependency {
  /// The type the optional wraps.
  static var wrappedType: Any.Type { get }

  /// The service registered for `Wrapped` under `name` in `container`, built if need be on
  /// `context`, or `nil` if nothing is registered for it.
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
  /// For the key of an optional type, `Wrapped?`, the key of `Wrapped` under the same name;
  /// `nil` for any other key. A cast: asked only where a look-up found nothing.
  var wrappedKey: AnyServiceKey? {
    guard let optional = type as? any OptionalDependency.Type else { return nil }
    return AnyServiceKey(optional.wrappedType, name: name, nameHash: nameHash)
  }
}

extension Container {
  /// Whether something is registered for `key` (or it is an array, which is the empty
  /// collection when nothing was contributed to it), or, for an optional key, for the type it
  /// wraps.
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

  /// The node of the type an optional `key` wraps (or, for `Wrapped??`, the type that wraps
  /// in turn), or `nil`: the part of ``lookup(dependency:)`` for a key nothing is registered
  /// for.
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

  /// The value of an optional dependency `Value` (a `Wrapped?`) whose own key nothing is
  /// registered for: the service of `Wrapped`, or `nil` as the value. `nil` as the result if
  /// `Value` is not optional.
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
