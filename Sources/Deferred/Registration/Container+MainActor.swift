extension Container {
  /// Registers a main-actor service whose factory's parameters are its dependencies: a view
  /// model, a coordinator, an SDK that must start on the main thread.
  ///
  /// The factory always runs on the main actor, whichever thread resolves the service
  /// (<doc:MainActorAndSwiftUI>).
  ///
  /// ```swift
  /// @MainActor @Observable final class KeypadModel {
  ///   init(calculator: Calculator) { ... }
  /// }
  ///
  /// try container.registerMainActor(
  ///   KeypadModel.self, priority: .afterFirstFrame(), KeypadModel.init(calculator:))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as.
  ///   - name: A name, where one type has several registrations.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value on the main actor from its dependencies.
  /// - Returns: The service's key.
  /// - Throws: As ``register(_:name:scope:priority:replacing:_:)-2f3f1``.
  @discardableResult @inlinable @inline(never)
  public func registerMainActor<Value: Sendable, each Dependency>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @MainActor @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try registerMainActorByType(name, scope, priority, replacing, factory)
  }

  @usableFromInline
  func registerMainActorByType<Value: Sendable, each Dependency>(
    _ name: String?, _ scope: Scope, _ priority: Priority, _ replacing: Bool,
    _ factory: @escaping @MainActor @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      ServiceKey(name: name), scope: scope, priority: priority, replacing: replacing,
      dependencies: declared(repeat (each Dependency).self),
      factory: .mainActor { resolver in
        return objectOfValue(try factory(repeat resolver.dependency((each Dependency).self)))
      }, isMainActor: true)
  }

  /// As ``registerMainActor(_:name:scope:priority:replacing:_:)-3wjea``, under `key`, with a
  /// factory whose parameters are the services of `dependencies`, in order.
  ///
  /// - Parameters:
  ///   - key: The key the service is resolved by.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - dependencies: The keys of the factory's parameters.
  ///   - factory: Makes the value on the main actor from its dependencies.
  /// - Returns: `key`.
  /// - Throws: As the form whose parameters are the dependencies.
  @discardableResult @inlinable @inline(never)
  public func registerMainActor<Value: Sendable, each Dependency>(
    _ key: ServiceKey<Value>, scope: Scope = .singleton, priority: Priority = .onDemand,
    replacing: Bool = false, dependencies: repeat ServiceKey<each Dependency>,
    factory: @escaping @MainActor @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try registerMainActorByKeys(
      key, scope, priority, replacing, repeat each dependencies, factory: factory)
  }

  @usableFromInline
  func registerMainActorByKeys<Value: Sendable, each Dependency>(
    _ key: ServiceKey<Value>, _ scope: Scope, _ priority: Priority, _ replacing: Bool,
    _ dependencies: repeat ServiceKey<each Dependency>,
    factory: @escaping @MainActor @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    let keys = (repeat each dependencies)
    return try add(
      key, scope: scope, priority: priority, replacing: replacing,
      dependencies: declared(repeat each dependencies),
      factory: .mainActor { resolver in
        return objectOfValue(try factory(repeat resolver.resolve(each keys)))
      }, isMainActor: true)
  }

  /// As ``registerMainActor(_:name:scope:priority:replacing:_:)-3wjea``, with an `async`
  /// factory, run once its dependencies are resolved: resolve it with
  /// ``awaitService(_:name:isolation:)``.
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as.
  ///   - name: A name, where one type has several registrations.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value on the main actor from its dependencies.
  /// - Returns: The service's key.
  /// - Throws: As the synchronous form.
  @discardableResult @inlinable @inline(never)
  public func registerMainActor<Value: Sendable, each Dependency: Sendable>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @MainActor @Sendable (repeat each Dependency) async throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    // An `async` factory hops to the main actor itself: the plain form's work serves.
    try registerAsyncByType(name, scope, priority, replacing, factory, isMainActor: true)
  }
}
