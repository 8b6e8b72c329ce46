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
  // Unowned and unchecked: a resolver lives only while its factory runs, and the build that
  // calls the factory holds its node and context, and its node's owner is alive
  // (Docs/Design.md, "Memory safety"). Strong, each would be retained and released on every
  // factory call.
  unowned(unsafe) let container: Container
  unowned(unsafe) let context: BuildContext
  unowned(unsafe) let dependent: AnyNode
  /// Whether the factory resolves what it needs itself, its edges observed as it does.
  let observes: Bool

  init(container: Container, context: BuildContext, dependent: AnyNode) {
    self.container = container
    self.context = context
    self.dependent = dependent
    observes = dependent.dependencies == nil
  }

  /// The built value of the service of `type`, `name` and `nameHash`, handed out to the
  /// factory; `nil` if it is not built (or is transient, or missing). Read without retaining
  /// the container or the node: a reading of an unowned field would retain it for the call.
  @inline(__always)
  private func builtValue(_ type: ObjectIdentifier, _ name: String?, _ nameHash: UInt)
    -> ValueReference?
  {
    Unmanaged.passUnretained(container)._withUnsafeGuaranteedRef { container in
      guard let found = container.lookup(type, name, nameHash) else { return nil }
      return found._withUnsafeGuaranteedRef { $0.builtValue(handedOutToFactory: true) }
    }
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
    // A built dependency without a key made (the parameter forms' factories resolve each
    // dependency through here).
    if !observes, let value = builtValue(ObjectIdentifier(Value.self), name, lookupHash(of: name)) {
      return value.load(as: Value.self)
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
    if let value = builtValue(ObjectIdentifier(Value.self), key.name, key.nameHash) {
      return value.load(as: Value.self)
    }
    return try container.resolve(key, context: context)
  }

  /// Resolves the dependency the factory declared at `position` (then moves `position` on),
  /// of type `Dependency`: the keyed forms' factories resolve their keys through this, from
  /// the node's declared keys, rather than from keys of their own.
  func resolveDeclared<Dependency: Sendable>(
    _: Dependency.Type, at position: UnsafeMutablePointer<Int>
  ) throws(DeferredError) -> Dependency {
    let key = Unmanaged.passUnretained(dependent)._withUnsafeGuaranteedRef {
      $0.dependencies.unsafelyUnwrapped[position.pointee]
    }
    position.pointee += 1
    if let value = builtValue(key.typeID, key.name, key.nameHash) {
      return value.load(as: Dependency.self)
    }
    return try container.resolve(ServiceKey<Dependency>(key), context: context)
  }
}
