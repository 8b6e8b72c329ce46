extension Container {
  /// Registers a service whose type is not `Sendable`, with the promise that makes sharing it
  /// safe, and a factory whose parameters are its dependencies.
  ///
  /// Otherwise as ``register(_:name:scope:priority:replacing:_:)-2f3f1``; see
  /// <doc:ServicesThatAreNotSendable>.
  ///
  /// ```swift
  /// try container.register(Store.self, promising: .threadSafe, FileStore.init(defaults:))
  /// let store: Store = try container.resolve()
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - promise: Why the service may be shared: ``ConcurrencyPromise/threadSafe``, or
  ///     ``ConcurrencyPromise/mainActor`` (then its factory runs on the main actor).
  ///   - factory: Makes the value from its dependencies, each resolved by its type.
  /// - Returns: The service's key.
  /// - Throws: As ``register(_:name:scope:priority:replacing:_:)-2f3f1``.
  @preconcurrency @discardableResult @inlinable @inline(never)
  public func register<Value, each Dependency>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    promising promise: ConcurrencyPromise,
    _ factory: @escaping @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try registerPromisingByType(name, scope, priority, replacing, promise, factory)
  }

  @usableFromInline
  func registerPromisingByType<Value, each Dependency>(
    _ name: String?, _ scope: Scope, _ priority: Priority, _ replacing: Bool,
    _ promise: ConcurrencyPromise,
    _ factory: @escaping @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try addPromised(
      ServiceKey(name: name), scope, priority, replacing, promise,
      dependencies: declared(repeat (each Dependency).self)
    ) { resolver throws in
      objectOfValue(try factory(repeat resolver.dependency((each Dependency).self)))
    }
  }

  /// As
  /// ``register(_:name:scope:priority:replacing:promising:_:)-(_,_,Scope,_,_,_,(Dependency)->Value)``,
  /// under `key`, with a factory whose parameters are the services of `dependencies`, in order.
  ///
  /// - Parameters:
  ///   - key: The key the service is resolved by.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - promise: Why the service may be shared (``ConcurrencyPromise``).
  ///   - dependencies: The keys of the factory's parameters.
  ///   - factory: Makes the value from its dependencies.
  /// - Returns: `key`.
  /// - Throws: As ``register(_:name:scope:priority:replacing:_:)-2f3f1``.
  @preconcurrency @discardableResult @inlinable @inline(never)
  public func register<Value, each Dependency>(
    _ key: ServiceKey<Value>, scope: Scope = .singleton, priority: Priority = .onDemand,
    replacing: Bool = false, promising promise: ConcurrencyPromise,
    dependencies: repeat ServiceKey<each Dependency>,
    factory: @escaping @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try registerPromisingByKeys(
      key, scope, priority, replacing, promise, repeat each dependencies, factory: factory)
  }

  @usableFromInline
  func registerPromisingByKeys<Value, each Dependency>(
    _ key: ServiceKey<Value>, _ scope: Scope, _ priority: Priority, _ replacing: Bool,
    _ promise: ConcurrencyPromise, _ dependencies: repeat ServiceKey<each Dependency>,
    factory: @escaping @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try addPromised(
      key, scope, priority, replacing, promise, dependencies: declared(repeat each dependencies),
      Factory.callingDeclared(factory))
  }

  /// As
  /// ``register(_:name:scope:priority:replacing:promising:_:)-(_,_,Scope,_,_,_,(Dependency)->Value)``,
  /// with a factory that resolves what it needs itself
  /// (<doc:ServicesThatAreNotSendable#Property-injection-and-optional-dependencies>).
  ///
  /// ```swift
  /// try container.register(SettingsPresenter.self, scope: .transient, promising: .mainActor) {
  ///   resolver in
  ///   let presenter = SettingsPresenter()
  ///   presenter.store = try resolver.resolve(Store.self)
  ///   return presenter
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as.
  ///   - name: A name, where one type has several registrations.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - promise: Why the service may be shared (``ConcurrencyPromise``).
  ///   - factory: Makes the value, resolving its dependencies from the ``Resolver`` it is given.
  /// - Returns: The service's key.
  /// - Throws: As ``register(_:name:scope:priority:replacing:_:)-2f3f1``.
  @preconcurrency @discardableResult
  public func register<Value>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    promising promise: ConcurrencyPromise,
    _ factory: @escaping @Sendable (borrowing Resolver) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try addPromised(ServiceKey(name: name), scope, priority, replacing, promise, dependencies: nil)
    { resolver throws in
      objectOfValue(try factory(resolver))
    }
  }

  /// Registers a node for `key` made by `make`, kept with `promise`: on the main actor for
  /// ``ConcurrencyPromise/mainActor``, anywhere for ``ConcurrencyPromise/threadSafe``.
  func addPromised<Value>(
    _ key: ServiceKey<Value>, _ scope: Scope, _ priority: Priority, _ replacing: Bool,
    _ promise: ConcurrencyPromise, dependencies: consuming DependencyList?,
    _ make: @escaping @Sendable (borrowing Resolver) throws -> AnyObject
  ) throws(DeferredError) -> ServiceKey<Value> {
    switch promise {
    case .threadSafe:
      return try add(
        key, scope: scope, priority: priority, replacing: replacing, dependencies: dependencies,
        factory: .sync(make), note: RegistrationNote(promise: promise))
    case .mainActor:
      return try add(
        key, scope: scope, priority: priority, replacing: replacing, dependencies: dependencies,
        factory: .mainActor { resolver in try make(resolver) }, isMainActor: true,
        note: RegistrationNote(promise: promise))
    }
  }
}
