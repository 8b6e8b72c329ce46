extension Container {
  /// Registers a service whose type is not `Sendable`, with the promise that makes sharing it
  /// safe, and a factory whose parameters are its dependencies.
  ///
  /// The ordinary ``register(_:name:scope:priority:replacing:_:)-2f3f1`` asks for a
  /// `Sendable` value, and Swift 6 refuses a type declared before it that does not say it is
  /// one (*type 'any Store' does not conform to the 'Sendable' protocol*). This form takes the
  /// type as it is declared, with the app's statement of why it is safe
  /// (``ConcurrencyPromise``); resolving it then compiles with no change to its declaration.
  ///
  /// ```swift
  /// try container.register(UserDefaults.self, promising: .threadSafe) { .standard }
  /// try container.register(Store.self, promising: .threadSafe, FileStore.init(defaults:))
  /// let store: Store = try container.resolve()
  /// ```
  ///
  /// Everything else is as in the ordinary form. The declaration is `@preconcurrency`, so a
  /// factory passed here in the Swift 5 language mode raises no warning. See
  /// <doc:ServicesThatAreNotSendable>.
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

  /// Registers a service whose type is not `Sendable` under `key`, with the promise that makes
  /// sharing it safe, and a factory whose parameters are the services of the `dependencies`
  /// keys, in order: the form for dependencies registered under a name.
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
      key, scope, priority, replacing, promise, dependencies: declared(repeat each dependencies)
    ) { resolver throws in
      // The keys are the node's declared dependencies, read back in order.
      var position = 0
      return objectOfValue(
        try factory(repeat resolver.resolveDeclared((each Dependency).self, at: &position)))
    }
  }

  /// Registers a service whose type is not `Sendable`, with the promise that makes sharing it
  /// safe, and a factory that resolves what it needs itself: the form for property injection
  /// and for dependencies only known while the factory runs.
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
