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
    try resolve(ServiceKey<Value>(name: name))
  }

  /// Resolves the service registered for `key`, building it if need be.
  ///
  /// - Parameter key: The service's key.
  /// - Returns: The service.
  /// - Throws: ``DeferredError`` if the service is missing, its factory throws, or it closes a
  ///   cycle.
  public func resolve<Value: Sendable>(_ key: ServiceKey<Value>) throws(DeferredError) -> Value {
    if dependent.dependencies == nil { dependent.observe(key.erased) }
    return try container.resolve(key, context: context)
  }

  /// Resolves the dependency the factory declared at `position` (then moves `position` on),
  /// of type `Dependency`: the keyed forms' factories resolve their keys through this, from
  /// the node's declared keys, rather than from keys of their own.
  func resolveDeclared<Dependency: Sendable>(
    _: Dependency.Type, at position: UnsafeMutablePointer<Int>
  ) throws(DeferredError) -> Dependency {
    let key = dependent.dependencies.unsafelyUnwrapped[position.pointee]
    position.pointee += 1
    return try container.resolve(ServiceKey<Dependency>(key), context: context)
  }
}
