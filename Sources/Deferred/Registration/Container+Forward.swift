extension Container {
  /// Makes the service of `source` answer to another type too: a protocol it conforms to, or a
  /// superclass. One instance for every key: a forwarded singleton is built once, whichever key
  /// asks first.
  ///
  /// The compiler checks the conversion: `{ $0 }` compiles only where the source converts to
  /// the target. The forward is a registration of the target's key with the source's scope,
  /// whose one dependency is the source; a child that overrides the source forwards its own.
  /// A weak source's forward converts the source's object of the moment and keeps nothing.
  ///
  /// ```swift
  /// let store = try container.register(FileStore.self) { try FileStore() }
  /// try container.forward(store, as: (any Store).self) { $0 }
  /// try container.forward(store, as: (any Exporting).self) { $0 }
  /// let exporter = try container.resolve((any Exporting).self)  // the same FileStore
  /// ```
  ///
  /// - Parameters:
  ///   - source: The key of the service to forward, registered before (here or in an ancestor).
  ///   - type: The type it answers to as well.
  ///   - name: The name of that key, if it has one.
  ///   - convert: Turns the service into the target type; `{ $0 }` for an upcast.
  /// - Returns: The target's key.
  /// - Throws: ``DeferredError/Code/missingService`` if `source` is not registered; as the
  ///   other registrations otherwise (``DeferredError/Code/duplicateRegistration`` if the
  ///   target's key is registered already).
  @discardableResult @inlinable @inline(never)
  public func forward<Value: Sendable, Target: Sendable>(
    _ source: ServiceKey<Value>, as type: Target.Type, name: String? = nil,
    _ convert: @escaping @Sendable (Value) -> Target
  ) throws(DeferredError) -> ServiceKey<Target> {
    try forwardByClosure(source, ServiceKey(name: name), convert)
  }

  /// The conversion form's work, behind its shim.
  @usableFromInline
  func forwardByClosure<Value: Sendable, Target: Sendable>(
    _ source: ServiceKey<Value>, _ target: ServiceKey<Target>,
    _ convert: @escaping @Sendable (Value) -> Target
  ) throws(DeferredError) -> ServiceKey<Target> {
    try forwardByConversion(source, target, convert, conformance: nil)
  }

  /// Makes the service of `source` answer to `type` too, converted at run time: for a target
  /// the compiler cannot check (prefer the form with a conversion).
  ///
  /// ``validate()`` checks the conformance where it can tell: by the types for a class
  /// target, by casting the source's value once it is built for a protocol. Resolving the
  /// target of a source that does not conform fails with ``DeferredError/Code/notConforming``.
  ///
  /// ```swift
  /// let store = try container.register(FileStore.self) { try FileStore() }
  /// try container.forward(store, as: (any Store).self)
  /// ```
  ///
  /// - Parameters:
  ///   - source: The key of the service to forward, registered before.
  ///   - type: The type it answers to as well.
  ///   - name: The name of that key, if it has one.
  /// - Returns: The target's key.
  /// - Throws: As ``forward(_:as:name:_:)``.
  @discardableResult @inlinable @inline(never)
  public func forward<Value: Sendable, Target: Sendable>(
    _ source: ServiceKey<Value>, as type: Target.Type, name: String? = nil
  ) throws(DeferredError) -> ServiceKey<Target> {
    try forwardByCast(source, ServiceKey<Target>(name: name))
  }

  /// The cast form's work, behind its shim.
  @usableFromInline
  func forwardByCast<Value: Sendable, Target: Sendable>(
    _ source: ServiceKey<Value>, _ target: ServiceKey<Target>
  ) throws(DeferredError) -> ServiceKey<Target> {
    let conformance: @Sendable (AnyNode) -> Bool? = { node in
      if Value.self is Target.Type { return true }
      if node.isPublished { return node.read(as: Value.self) is Target }
      // Two classes neither of which derives from the other: it can tell.
      if Target.self is AnyClass && Value.self is AnyClass { return false }
      return nil
    }
    return try forwardByConversion(
      source, target, { $0 as? Target }, conformance: conformance)
  }

  /// The forms' work: a registration of `target` whose one dependency is `source`.
  func forwardByConversion<Value: Sendable, Target: Sendable>(
    _ source: ServiceKey<Value>, _ target: ServiceKey<Target>,
    _ convert: @escaping @Sendable (Value) -> Target?,
    conformance: (@Sendable (AnyNode) -> Bool?)?
  ) throws(DeferredError) -> ServiceKey<Target> {
    guard let sourceNode = registeredNode(for: source.erased) else {
      throw DeferredError(
        .missingService, key: source.erased, chain: [target.erased, source.erased],
        detail: "register it before forwarding it")
    }
    let targetKey = target.erased
    // The source's scope and priority: a forward is built when its source is. A weak
    // source's forward is a transient made from the source's object of the moment: it holds
    // nothing, so the source goes when its last holder lets it go.
    let isWeak = sourceNode.kind == .weak
    return try add(
      target, scope: isWeak ? .transient : sourceNode.scope,
      priority: isWeak ? .onDemand : sourceNode.priority, replacing: false,
      dependencies: [source.erased],
      factory: .sync { resolver in
        let built = try resolver.resolve(source)
        guard let converted = convert(built) else {
          throw DeferredError(
            .notConforming, key: targetKey, chain: resolver.context.chain,
            detail: "\(Value.self) does not conform to \(Target.self)")
        }
        return objectOfValue(converted)
      },
      note: RegistrationNote(conformance: conformance, isForward: true))
  }
}
