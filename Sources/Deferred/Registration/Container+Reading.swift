extension Container {
  /// Registers a service that takes its dependencies as one value, a ``ServiceReader``, and
  /// declares the services it reads through it: the form for apps whose types take "the
  /// container" as their dependencies (a `Has*` protocol layer).
  ///
  /// ```swift
  /// extension ServiceReader: HasSettings {
  ///   var settings: Settings { self[Settings.self] }
  /// }
  /// try container.register(
  ///   SettingsModel.self, scope: .transient, reading: Settings.self, Clock.self
  /// ) { reader in SettingsModel(dependencies: reader) }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as.
  ///   - name: A name, where one type has several registrations.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - first: The type of a service the reader may read, unnamed.
  ///   - reads: The types of the others it may read, each unnamed.
  ///   - factory: Makes the value from the reader.
  /// - Returns: The service's key.
  /// - Throws: As ``register(_:name:scope:priority:replacing:_:)-2f3f1``.
  @discardableResult
  public func register<Value: Sendable, First, each Read>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    reading first: First.Type, _ reads: repeat (each Read).Type,
    factory: @escaping @Sendable (ServiceReader) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      ServiceKey<Value>(name: name), scope: scope, priority: priority, replacing: replacing,
      dependencies: declared(First.self, repeat each reads),
      factory: .sync { resolver in objectOfValue(try factory(ServiceReader(resolver))) })
  }

  /// As ``register(_:name:scope:priority:replacing:reading:_:factory:)``, under `key`, with
  /// reads declared by key: for services registered under a name.
  ///
  /// ```swift
  /// let disk = ServiceKey<Storage>(name: "disk")
  /// try container.register(
  ///   ServiceKey<CacheModel>(), reading: disk, ServiceKey<Clock>()
  /// ) { reader in CacheModel(dependencies: reader) }
  /// ```
  ///
  /// - Parameters:
  ///   - key: The key the service is resolved by.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - first: The key of a service the reader may read.
  ///   - reads: The keys of the others it may read.
  ///   - factory: Makes the value from the reader.
  /// - Returns: `key`.
  /// - Throws: As ``register(_:name:scope:priority:replacing:_:)-2f3f1``.
  @discardableResult
  public func register<Value: Sendable, First, each Read>(
    _ key: ServiceKey<Value>, scope: Scope = .singleton, priority: Priority = .onDemand,
    replacing: Bool = false, reading first: ServiceKey<First>,
    _ reads: repeat ServiceKey<each Read>,
    factory: @escaping @Sendable (ServiceReader) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      key, scope: scope, priority: priority, replacing: replacing,
      dependencies: declared(first, repeat each reads),
      factory: .sync { resolver in objectOfValue(try factory(ServiceReader(resolver))) })
  }

  /// As ``register(_:name:scope:priority:replacing:reading:_:factory:)``, for a service whose
  /// type is not `Sendable`, with a promise (``ConcurrencyPromise``).
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as.
  ///   - name: A name, where one type has several registrations.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - promise: Why the service may be shared: ``ConcurrencyPromise/threadSafe``, or
  ///     ``ConcurrencyPromise/mainActor`` (then its factory runs on the main actor).
  ///   - first: The type of a service the reader may read, unnamed.
  ///   - reads: The types of the others it may read, each unnamed.
  ///   - factory: Makes the value from the reader.
  /// - Returns: The service's key.
  /// - Throws: As ``register(_:name:scope:priority:replacing:_:)-2f3f1``.
  @preconcurrency @discardableResult
  public func register<Value, First, each Read>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    promising promise: ConcurrencyPromise, reading first: First.Type,
    _ reads: repeat (each Read).Type,
    factory: @escaping @Sendable (ServiceReader) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try addPromised(
      ServiceKey(name: name), scope, priority, replacing, promise,
      dependencies: declared(First.self, repeat each reads)
    ) { resolver throws in
      objectOfValue(try factory(ServiceReader(resolver)))
    }
  }
}
