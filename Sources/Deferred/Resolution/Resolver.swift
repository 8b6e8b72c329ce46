/// What a factory registered with the resolver form resolves its dependencies from.
///
/// It resolves from the container the registration belongs to, on the build that is running,
/// so a cycle through it is found and named. It exists only while the factory runs: it cannot
/// be copied or kept.
///
/// ```swift
/// try container.register(Backend.self) { resolver in
///   try resolver.resolve(Settings.self).offline ? OfflineBackend() : try LiveBackend()
/// }
/// ```
public struct Resolver: ~Copyable {
  let container: Container
  let context: BuildContext
  let dependent: AnyNode
  /// Whether the factory resolves what it needs itself, its edges observed as it does.
  let observes: Bool

  init(container: Container, context: BuildContext, dependent: AnyNode) {
    self.container = container
    self.context = context
    self.dependent = dependent
    observes = dependent.dependencies == nil
  }

  /// The built value of the service of `type`, `name` and `nameHash` (its object), handed out
  /// to the factory; `nil` if it is not built (or is transient, or missing).
  @inline(__always)
  private func publishedObject(_ type: ObjectIdentifier, _ name: String?, _ nameHash: UInt)
    -> AnyObject?
  {
    container.lookup(type, name, nameHash)?.publishedObject(handedOutToFactory: true)
  }

  /// Resolves the service registered for `type` and `name`, building it if need be.
  ///
  /// - Parameters:
  ///   - type: The service's type; it may be left out where the compiler can infer it.
  ///   - name: The registration's name, if it has one.
  /// - Returns: The service.
  /// - Throws: ``DeferredError`` if the service is missing, its factory throws, or it closes a
  ///   cycle.
  public func resolve<Value: Sendable>(
    _ type: Value.Type = Value.self, name: String? = nil
  ) throws(DeferredError) -> Value {
    // A built service without a key made.
    if !observes,
      let object = publishedObject(ObjectIdentifier(Value.self), name, lookupHash(of: name))
    {
      return valueOfObject(object, as: Value.self)
    }
    return try resolve(ServiceKey<Value>(name: name))
  }

  /// Resolves the service registered for `key`, building it if need be.
  ///
  /// - Parameter key: The service's key.
  /// - Returns: The service.
  /// - Throws: ``DeferredError`` if the service is missing, its factory throws, or it closes a
  ///   cycle.
  public func resolve<Value: Sendable>(_ key: ServiceKey<Value>) throws(DeferredError) -> Value {
    if observes { dependent.observe(key.erased) }
    if let object = publishedObject(ObjectIdentifier(Value.self), key.name, key.nameHash) {
      return valueOfObject(object, as: Value.self)
    }
    return try container.resolve(key, context: context)
  }

  /// A dependency the factory declares by its type, unnamed: its built value at once if it is
  /// built (the walk built every declared dependency before the factory runs), else resolved
  /// as ``resolve(_:name:)`` does. Inlined into the parameter forms' factories, with the
  /// look-up itself out of line.
  @inline(__always)
  func dependency<Dependency: Sendable>(_: Dependency.Type) throws(DeferredError) -> Dependency {
    if let object = publishedDependency(ObjectIdentifier(Dependency.self)) {
      return valueOfObject(object, as: Dependency.self)
    }
    return try resolve(ServiceKey<Dependency>())
  }

  /// The built value of the unnamed dependency of `type`, handed out to the factory; `nil` if
  /// it is not built in its cell (or the factory observes what it resolves).
  @inline(never)
  func publishedDependency(_ type: ObjectIdentifier) -> AnyObject? {
    observes ? nil : publishedObject(type, nil, 0)
  }

  /// Resolves the dependency the factory declared at `position` (then moves `position` on),
  /// of type `Dependency`: the keyed forms' factories resolve their keys through this, from
  /// the node's declared keys, rather than from keys of their own.
  func resolveDeclared<Dependency: Sendable>(
    _: Dependency.Type, at position: inout Int
  ) throws(DeferredError) -> Dependency {
    guard let dependencies = dependent.dependencies, position < dependencies.count else {
      preconditionFailure("\(dependent.key) resolved more dependencies than it declares")
    }
    let key = dependencies[position]
    position += 1
    if let object = publishedObject(key.typeID, key.name, key.nameHash) {
      return valueOfObject(object, as: Dependency.self)
    }
    return try container.resolve(ServiceKey<Dependency>(key), context: context)
  }
}
