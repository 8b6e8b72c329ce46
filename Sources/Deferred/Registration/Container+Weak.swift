// The forms that take `scope: .weak` (``WeakScope``), whose value is a class: each is the
// general form of the same parameters with ``Scope/weakObject``.

extension Container {
  /// As ``register(_:name:scope:priority:replacing:_:)-2f3f1``, for a class, with
  /// `scope: .weak`: shared while anything outside the container holds it (``WeakScope``).
  ///
  /// ```swift
  /// try container.register(ImageCache.self, scope: .weak) { ImageCache() }
  /// try container.register(EditorModel.self, scope: .weak, EditorModel.init(store:))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The class the service is resolved as.
  ///   - name: A name, where one type has several registrations.
  ///   - scope: `.weak`.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value from its dependencies, each resolved by its type.
  /// - Returns: The service's key.
  /// - Throws: As the general form.
  @discardableResult @inlinable @inline(never)
  public func register<Value: AnyObject & Sendable, each Dependency>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: WeakScope,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try registerByType(name, .weakObject, priority, replacing, factory)
  }

  /// Registers a weak service of a class (``WeakScope``) under `key`, whose factory's
  /// parameters are the services of `dependencies`.
  ///
  /// - Parameters:
  ///   - key: The key the service is resolved by.
  ///   - scope: `.weak`.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - dependencies: The keys of the factory's parameters.
  ///   - factory: Makes the value from its dependencies.
  /// - Returns: `key`.
  /// - Throws: As the general form.
  @discardableResult @inlinable @inline(never)
  public func register<Value: AnyObject & Sendable, each Dependency>(
    _ key: ServiceKey<Value>, scope: WeakScope, priority: Priority = .onDemand,
    replacing: Bool = false, dependencies: repeat ServiceKey<each Dependency>,
    factory: @escaping @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try registerByKeys(
      key, .weakObject, priority, replacing, dependencies: repeat each dependencies,
      factory: .calling(factory, with: repeat each dependencies))
  }

  /// Registers a weak service of a class (``WeakScope``) whose factory resolves what it needs.
  ///
  /// - Parameters:
  ///   - type: The class the service is resolved as.
  ///   - name: A name, where one type has several registrations.
  ///   - scope: `.weak`.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value, resolving its dependencies from the ``Resolver`` it is given.
  /// - Returns: The service's key.
  /// - Throws: As the general form.
  @discardableResult
  public func register<Value: AnyObject & Sendable>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: WeakScope,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (borrowing Resolver) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      ServiceKey<Value>(name: name), scope: .weakObject, priority: priority,
      replacing: replacing, dependencies: nil, factory: .producing(factory))
  }

  /// Registers a weak service of a class (``WeakScope``) under `key`, whose factory resolves
  /// what it needs.
  ///
  /// - Parameters:
  ///   - key: The key the service is resolved by.
  ///   - scope: `.weak`.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value, resolving its dependencies from the ``Resolver`` it is given.
  /// - Returns: `key`.
  /// - Throws: As the general form.
  @discardableResult
  public func register<Value: AnyObject & Sendable>(
    _ key: ServiceKey<Value>, scope: WeakScope, priority: Priority = .onDemand,
    replacing: Bool = false, _ factory: @escaping @Sendable (borrowing Resolver) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      key, scope: .weakObject, priority: priority, replacing: replacing, dependencies: nil,
      factory: .producing(factory))
  }

  /// As
  /// ``register(_:name:scope:priority:replacing:promising:_:)-(_,_,Scope,_,_,_,(Dependency)->Value)``,
  /// for a class, with `scope: .weak` (``WeakScope``).
  ///
  /// - Parameters:
  ///   - type: The class the service is resolved as.
  ///   - name: A name, where one type has several registrations.
  ///   - scope: `.weak`.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - promise: Why the service may be shared (``ConcurrencyPromise``).
  ///   - factory: Makes the value from its dependencies, each resolved by its type.
  /// - Returns: The service's key.
  /// - Throws: As the general form.
  @preconcurrency @discardableResult @inlinable @inline(never)
  public func register<Value: AnyObject, each Dependency>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: WeakScope,
    priority: Priority = .onDemand, replacing: Bool = false,
    promising promise: ConcurrencyPromise,
    _ factory: @escaping @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try registerPromisingByType(name, .weakObject, priority, replacing, promise, factory)
  }

  /// Registers a weak service of a class that is not `Sendable` (``WeakScope``), with a promise,
  /// under `key`, whose factory's parameters are the services of `dependencies`.
  ///
  /// - Parameters:
  ///   - key: The key the service is resolved by.
  ///   - scope: `.weak`.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - promise: Why the service may be shared (``ConcurrencyPromise``).
  ///   - dependencies: The keys of the factory's parameters.
  ///   - factory: Makes the value from its dependencies.
  /// - Returns: `key`.
  /// - Throws: As the general form.
  @preconcurrency @discardableResult @inlinable @inline(never)
  public func register<Value: AnyObject, each Dependency>(
    _ key: ServiceKey<Value>, scope: WeakScope, priority: Priority = .onDemand,
    replacing: Bool = false, promising promise: ConcurrencyPromise,
    dependencies: repeat ServiceKey<each Dependency>,
    factory: @escaping @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try registerPromisingByKeys(
      key, .weakObject, priority, replacing, promise, repeat each dependencies, factory: factory)
  }

  /// Registers a weak service of a class that is not `Sendable` (``WeakScope``), with a promise,
  /// whose factory resolves what it needs.
  ///
  /// - Parameters:
  ///   - type: The class the service is resolved as.
  ///   - name: A name, where one type has several registrations.
  ///   - scope: `.weak`.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - promise: Why the service may be shared (``ConcurrencyPromise``).
  ///   - factory: Makes the value, resolving its dependencies from the ``Resolver`` it is given.
  /// - Returns: The service's key.
  /// - Throws: As the general form.
  @preconcurrency @discardableResult
  public func register<Value: AnyObject>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: WeakScope,
    priority: Priority = .onDemand, replacing: Bool = false,
    promising promise: ConcurrencyPromise,
    _ factory: @escaping @Sendable (borrowing Resolver) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try addPromised(
      ServiceKey(name: name), .weakObject, priority, replacing, promise, dependencies: nil
    ) { resolver throws in
      objectOfValue(try factory(resolver))
    }
  }

  /// As ``registerMainActor(_:name:scope:priority:replacing:_:)-3wjea``, for a class, with
  /// `scope: .weak` (``WeakScope``).
  ///
  /// - Parameters:
  ///   - type: The class the service is resolved as.
  ///   - name: A name, where one type has several registrations.
  ///   - scope: `.weak`.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value on the main actor from its dependencies.
  /// - Returns: The service's key.
  /// - Throws: As the general form.
  @discardableResult @inlinable @inline(never)
  public func registerMainActor<Value: AnyObject & Sendable, each Dependency>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: WeakScope,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @MainActor @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try registerMainActorByType(name, .weakObject, priority, replacing, factory)
  }
}
