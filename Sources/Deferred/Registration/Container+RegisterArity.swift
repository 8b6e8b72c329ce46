// Fixed-arity forms of the parameter form's `register(_:name:scope:priority:replacing:_:)`, for
// factories of up to six parameters: not inlinable and without a pack, so that a registration
// specialises nothing in the caller's module (Benchmarks/README.md, "Why the core is shaped as
// it is"). Hidden from the documentation: DocC and autocomplete show the pack form's family.

extension Container {
  /// Registers a service made by a factory without parameters: the form of
  /// ``register(_:name:scope:priority:replacing:_:)-2f3f1``,
  /// which serves factories of more parameters.
  ///
  /// ```swift
  /// try container.register(Clock.self, scope: .transient) { SystemClock() }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: ``Scope/singleton`` (the default), ``Scope/transient``, ``WeakScope/weak`` or a
  ///     named scope (``Scope/named(_:)``).
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value from its dependencies, each resolved by its type.
  /// - Returns: The service's key.
  /// - Throws: As the pack form.
  @_documentation(visibility: internal) @discardableResult
  public func register<Value: Sendable>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable () throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      Value.self, name: name, scope: scope, priority: priority, replacing: replacing,
      dependencies: [],
      factory: .sync { resolver in return objectOfValue(try factory()) })
  }

  /// Registers a service made by a factory of one parameter, a dependency resolved by its type: the form of
  /// ``register(_:name:scope:priority:replacing:_:)-2f3f1``,
  /// which serves more parameters.
  ///
  /// ```swift
  /// try container.register(Feed.self, priority: .afterFirstFrame(), Feed.init(store:))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: ``Scope/singleton`` (the default), ``Scope/transient``, ``WeakScope/weak`` or a
  ///     named scope (``Scope/named(_:)``).
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value from its dependencies, each resolved by its type.
  /// - Returns: The service's key.
  /// - Throws: As the pack form.
  @_documentation(visibility: internal) @discardableResult
  public func register<Value: Sendable, D1>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (D1) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      Value.self, name: name, scope: scope, priority: priority, replacing: replacing,
      dependencies: DependencyList(D1.self),
      factory: .sync { resolver in
        return objectOfValue(try factory(resolver.dependency(D1.self)))
      })
  }

  /// Registers a service made by a factory of two parameters, each a dependency resolved by its
  /// type: the form of
  /// ``register(_:name:scope:priority:replacing:_:)-2f3f1``,
  /// which serves more parameters.
  ///
  /// ```swift
  /// try container.register(Feed.self, priority: .afterFirstFrame(), Feed.init(store:))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: ``Scope/singleton`` (the default), ``Scope/transient``, ``WeakScope/weak`` or a
  ///     named scope (``Scope/named(_:)``).
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value from its dependencies, each resolved by its type.
  /// - Returns: The service's key.
  /// - Throws: As the pack form.
  @_documentation(visibility: internal) @discardableResult
  public func register<Value: Sendable, D1, D2>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (D1, D2) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      Value.self, name: name, scope: scope, priority: priority, replacing: replacing,
      dependencies: DependencyList(D1.self, D2.self),
      factory: .sync { resolver in
        return objectOfValue(
          try factory(resolver.dependency(D1.self), resolver.dependency(D2.self)))
      })
  }

  /// Registers a service made by a factory of three parameters, each a dependency resolved by its
  /// type: the form of
  /// ``register(_:name:scope:priority:replacing:_:)-2f3f1``,
  /// which serves more parameters.
  ///
  /// ```swift
  /// try container.register(Feed.self, priority: .afterFirstFrame(), Feed.init(store:))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: ``Scope/singleton`` (the default), ``Scope/transient``, ``WeakScope/weak`` or a
  ///     named scope (``Scope/named(_:)``).
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value from its dependencies, each resolved by its type.
  /// - Returns: The service's key.
  /// - Throws: As the pack form.
  @_documentation(visibility: internal) @discardableResult
  public func register<Value: Sendable, D1, D2, D3>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (D1, D2, D3) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      Value.self, name: name, scope: scope, priority: priority, replacing: replacing,
      dependencies: [
        AnyServiceKey(D1.self, name: nil), AnyServiceKey(D2.self, name: nil),
        AnyServiceKey(D3.self, name: nil),
      ],
      factory: .sync { resolver in
        return objectOfValue(
          try factory(
            resolver.dependency(D1.self), resolver.dependency(D2.self), resolver.dependency(D3.self)
          ))
      })
  }

  /// Registers a service made by a factory of four parameters, each a dependency resolved by its
  /// type: the form of
  /// ``register(_:name:scope:priority:replacing:_:)-2f3f1``,
  /// which serves more parameters.
  ///
  /// ```swift
  /// try container.register(Feed.self, priority: .afterFirstFrame(), Feed.init(store:))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: ``Scope/singleton`` (the default), ``Scope/transient``, ``WeakScope/weak`` or a
  ///     named scope (``Scope/named(_:)``).
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value from its dependencies, each resolved by its type.
  /// - Returns: The service's key.
  /// - Throws: As the pack form.
  @_documentation(visibility: internal) @discardableResult
  public func register<Value: Sendable, D1, D2, D3, D4>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (D1, D2, D3, D4) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      Value.self, name: name, scope: scope, priority: priority, replacing: replacing,
      dependencies: [
        AnyServiceKey(D1.self, name: nil), AnyServiceKey(D2.self, name: nil),
        AnyServiceKey(D3.self, name: nil), AnyServiceKey(D4.self, name: nil),
      ],
      factory: .sync { resolver in
        return objectOfValue(
          try factory(
            resolver.dependency(D1.self), resolver.dependency(D2.self),
            resolver.dependency(D3.self),
            resolver.dependency(D4.self)))
      })
  }

  /// Registers a service made by a factory of five parameters, each a dependency resolved by its
  /// type: the form of
  /// ``register(_:name:scope:priority:replacing:_:)-2f3f1``,
  /// which serves more parameters.
  ///
  /// ```swift
  /// try container.register(Feed.self, priority: .afterFirstFrame(), Feed.init(store:))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: ``Scope/singleton`` (the default), ``Scope/transient``, ``WeakScope/weak`` or a
  ///     named scope (``Scope/named(_:)``).
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value from its dependencies, each resolved by its type.
  /// - Returns: The service's key.
  /// - Throws: As the pack form.
  @_documentation(visibility: internal) @discardableResult
  public func register<
    Value: Sendable, D1, D2, D3, D4, D5
  >(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (D1, D2, D3, D4, D5) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      Value.self, name: name, scope: scope, priority: priority, replacing: replacing,
      dependencies: [
        AnyServiceKey(D1.self, name: nil), AnyServiceKey(D2.self, name: nil),
        AnyServiceKey(D3.self, name: nil), AnyServiceKey(D4.self, name: nil),
        AnyServiceKey(D5.self, name: nil),
      ],
      factory: .sync { resolver in
        return objectOfValue(
          try factory(
            resolver.dependency(D1.self), resolver.dependency(D2.self),
            resolver.dependency(D3.self),
            resolver.dependency(D4.self), resolver.dependency(D5.self)))
      })
  }

  /// Registers a service made by a factory of six parameters, each a dependency resolved by its
  /// type: the form of
  /// ``register(_:name:scope:priority:replacing:_:)-2f3f1``,
  /// which serves more parameters.
  ///
  /// ```swift
  /// try container.register(Feed.self, priority: .afterFirstFrame(), Feed.init(store:))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: ``Scope/singleton`` (the default), ``Scope/transient``, ``WeakScope/weak`` or a
  ///     named scope (``Scope/named(_:)``).
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value from its dependencies, each resolved by its type.
  /// - Returns: The service's key.
  /// - Throws: As the pack form.
  @_documentation(visibility: internal) @discardableResult
  public func register<
    Value: Sendable, D1, D2, D3, D4, D5,
    D6
  >(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (D1, D2, D3, D4, D5, D6) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      Value.self, name: name, scope: scope, priority: priority, replacing: replacing,
      dependencies: [
        AnyServiceKey(D1.self, name: nil), AnyServiceKey(D2.self, name: nil),
        AnyServiceKey(D3.self, name: nil), AnyServiceKey(D4.self, name: nil),
        AnyServiceKey(D5.self, name: nil), AnyServiceKey(D6.self, name: nil),
      ],
      factory: .sync { resolver in
        return objectOfValue(
          try factory(
            resolver.dependency(D1.self), resolver.dependency(D2.self),
            resolver.dependency(D3.self),
            resolver.dependency(D4.self), resolver.dependency(D5.self), resolver.dependency(D6.self)
          ))
      })
  }
}
