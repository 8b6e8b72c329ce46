// Compile time: fixed-arity forms of the parameter form's
// `register(_:name:scope:priority:replacing:_:)`.
//
// The pack form is an `@inlinable @inline(never)` shim: every registration specialises it in
// the caller's module, one more function per registration that refers to the service's
// metadata, and its default arguments' generators (which take the shim's attributes) two or
// three more. LLVM's call graph walks the type descriptors reachable from each function that
// refers to metadata (a service's descriptor names its stored properties' types, and so on
// down), so that each such function made an app's composition root slower to build, and more
// than linearly. The overloads below are not inlinable and take no pack: the caller passes the
// types' metadata, the options and one closure, and specialises nothing (as a Swinject
// registration does). Their default arguments are made by generators the caller inlines (a
// constant each), since these functions are not `@inline(never)`: a registration without
// options calls the same overload as one with options, and no overload without options is
// needed. Swift prefers an overload without a pack to one with a pack where both fit, so these
// serve factories of up to six parameters and the pack form serves the rest. Each builds the
// dependency keys and the erased factory and registers through the same `add` as every form;
// with no pack, a registration also makes no pack metadata at run time. Benchmarks/README.md,
// "Compile time". They are hidden from the documentation (`@_documentation(visibility:
// internal)`), so that DocC and autocomplete show one family per form: the pack form's.

extension Container {
  /// Registers a service made by a factory without parameters: the form of
  /// ``register(_:name:scope:priority:replacing:_:)-2f3f1``,
  /// which serves factories of more parameters.
  ///
  /// ```swift
  /// try container.register(Clock.self, scope: .transient) { SystemClock() }
  /// ```
  ///
  /// Compile time: not inlinable and without a pack, so that a call, with options or without,
  /// specialises nothing in the caller's module (see the top of this file).
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: ``Scope/singleton`` (the default), ``Scope/transient``, ``Scope/weak`` or a
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
  /// Compile time: not inlinable and without a pack, so that a call, with options or without,
  /// specialises nothing in the caller's module (see the top of this file).
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: ``Scope/singleton`` (the default), ``Scope/transient``, ``Scope/weak`` or a
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
  /// Compile time: not inlinable and without a pack, so that a call, with options or without,
  /// specialises nothing in the caller's module (see the top of this file).
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: ``Scope/singleton`` (the default), ``Scope/transient``, ``Scope/weak`` or a
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
  /// Compile time: not inlinable and without a pack, so that a call, with options or without,
  /// specialises nothing in the caller's module (see the top of this file).
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: ``Scope/singleton`` (the default), ``Scope/transient``, ``Scope/weak`` or a
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
  /// Compile time: not inlinable and without a pack, so that a call, with options or without,
  /// specialises nothing in the caller's module (see the top of this file).
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: ``Scope/singleton`` (the default), ``Scope/transient``, ``Scope/weak`` or a
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
  /// Compile time: not inlinable and without a pack, so that a call, with options or without,
  /// specialises nothing in the caller's module (see the top of this file).
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: ``Scope/singleton`` (the default), ``Scope/transient``, ``Scope/weak`` or a
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
  /// Compile time: not inlinable and without a pack, so that a call, with options or without,
  /// specialises nothing in the caller's module (see the top of this file).
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: ``Scope/singleton`` (the default), ``Scope/transient``, ``Scope/weak`` or a
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
