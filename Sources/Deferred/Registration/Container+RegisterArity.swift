// The pack form `register(_:name:scope:priority:replacing:_:)` for factories of up to six
// parameters: not inlinable and without a pack, so a registration specialises nothing in the
// caller's module (Benchmarks/README.md, "Why the core is shaped as it is"). Hidden from the
// documentation, which shows the pack form.

extension Container {
  /// Registers a service made by a factory of no parameters; the pack form
  /// ``register(_:name:scope:priority:replacing:_:)-2f3f1`` documents the rest.
  @_documentation(visibility: internal) @discardableResult
  public func register<Value: Sendable>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable () throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      ServiceKey(name: name), scope: scope, priority: priority, replacing: replacing,
      dependencies: [],
      factory: .sync { resolver in return objectOfValue(try factory()) })
  }

  /// Registers a service made by a factory of one parameter, a dependency resolved by its type;
  /// the pack form ``register(_:name:scope:priority:replacing:_:)-2f3f1`` documents the rest.
  @_documentation(visibility: internal) @discardableResult
  public func register<Value: Sendable, D1>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (D1) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      ServiceKey(name: name), scope: scope, priority: priority, replacing: replacing,
      dependencies: DependencyList(D1.self),
      factory: .sync { resolver in
        return objectOfValue(try factory(resolver.dependency(D1.self)))
      })
  }

  /// Registers a service made by a factory of two parameters, each a dependency resolved by
  /// its type; the pack form ``register(_:name:scope:priority:replacing:_:)-2f3f1`` documents
  /// the rest.
  @_documentation(visibility: internal) @discardableResult
  public func register<Value: Sendable, D1, D2>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (D1, D2) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      ServiceKey(name: name), scope: scope, priority: priority, replacing: replacing,
      dependencies: DependencyList(D1.self, D2.self),
      factory: .sync { resolver in
        return objectOfValue(
          try factory(resolver.dependency(D1.self), resolver.dependency(D2.self)))
      })
  }

  /// Registers a service made by a factory of three parameters, each a dependency resolved by
  /// its type; the pack form ``register(_:name:scope:priority:replacing:_:)-2f3f1`` documents
  /// the rest.
  @_documentation(visibility: internal) @discardableResult
  public func register<Value: Sendable, D1, D2, D3>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (D1, D2, D3) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      ServiceKey(name: name), scope: scope, priority: priority, replacing: replacing,
      dependencies: [
        AnyServiceKey(D1.self, name: nil), AnyServiceKey(D2.self, name: nil),
        AnyServiceKey(D3.self, name: nil),
      ],
      factory: .sync { resolver in
        return objectOfValue(
          try factory(
            resolver.dependency(D1.self), resolver.dependency(D2.self),
            resolver.dependency(D3.self)))
      })
  }

  /// Registers a service made by a factory of four parameters, each a dependency resolved by
  /// its type; the pack form ``register(_:name:scope:priority:replacing:_:)-2f3f1`` documents
  /// the rest.
  @_documentation(visibility: internal) @discardableResult
  public func register<Value: Sendable, D1, D2, D3, D4>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (D1, D2, D3, D4) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      ServiceKey(name: name), scope: scope, priority: priority, replacing: replacing,
      dependencies: [
        AnyServiceKey(D1.self, name: nil), AnyServiceKey(D2.self, name: nil),
        AnyServiceKey(D3.self, name: nil), AnyServiceKey(D4.self, name: nil),
      ],
      factory: .sync { resolver in
        return objectOfValue(
          try factory(
            resolver.dependency(D1.self), resolver.dependency(D2.self),
            resolver.dependency(D3.self), resolver.dependency(D4.self)))
      })
  }

  /// Registers a service made by a factory of five parameters, each a dependency resolved by
  /// its type; the pack form ``register(_:name:scope:priority:replacing:_:)-2f3f1`` documents
  /// the rest.
  @_documentation(visibility: internal) @discardableResult
  public func register<Value: Sendable, D1, D2, D3, D4, D5>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (D1, D2, D3, D4, D5) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      ServiceKey(name: name), scope: scope, priority: priority, replacing: replacing,
      dependencies: [
        AnyServiceKey(D1.self, name: nil), AnyServiceKey(D2.self, name: nil),
        AnyServiceKey(D3.self, name: nil), AnyServiceKey(D4.self, name: nil),
        AnyServiceKey(D5.self, name: nil),
      ],
      factory: .sync { resolver in
        return objectOfValue(
          try factory(
            resolver.dependency(D1.self), resolver.dependency(D2.self),
            resolver.dependency(D3.self), resolver.dependency(D4.self),
            resolver.dependency(D5.self)))
      })
  }

  /// Registers a service made by a factory of six parameters, each a dependency resolved by
  /// its type; the pack form ``register(_:name:scope:priority:replacing:_:)-2f3f1`` documents
  /// the rest.
  @_documentation(visibility: internal) @discardableResult
  public func register<Value: Sendable, D1, D2, D3, D4, D5, D6>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (D1, D2, D3, D4, D5, D6) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      ServiceKey(name: name), scope: scope, priority: priority, replacing: replacing,
      dependencies: [
        AnyServiceKey(D1.self, name: nil), AnyServiceKey(D2.self, name: nil),
        AnyServiceKey(D3.self, name: nil), AnyServiceKey(D4.self, name: nil),
        AnyServiceKey(D5.self, name: nil), AnyServiceKey(D6.self, name: nil),
      ],
      factory: .sync { resolver in
        return objectOfValue(
          try factory(
            resolver.dependency(D1.self), resolver.dependency(D2.self),
            resolver.dependency(D3.self), resolver.dependency(D4.self),
            resolver.dependency(D5.self), resolver.dependency(D6.self)))
      })
  }
}
