extension Container {
  /// Makes the service of `source` answer to another type too: a protocol it conforms to, or a
  /// superclass. One instance for every key: a forwarded singleton is built once, whichever key
  /// asks first.
  ///
  /// The conversion is checked by the compiler: `{ $0 }` compiles only where the source's type
  /// converts to the target. The forward is a registration of its own, of the target's key,
  /// whose one declared dependency is the source: it has the source's scope, its value is the
  /// converted source (so once built it is resolved by a lock-free read, like any singleton),
  /// and a child that overrides the source forwards its own. The forward of a ``WeakScope/weak``
  /// source is weak too: it is the source's object of the moment, converted at each resolve,
  /// so it keeps nothing alive, and its target may be any type the object converts to.
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
    // A shim specialised in the caller's module: see `registerByType`.
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
  /// the compiler cannot check where the forward is made (the form with a conversion is
  /// checked by the compiler, and is to be preferred).
  ///
  /// ``validate()`` checks that the source conforms to the target, where it can tell: if the
  /// source's type is the target or one of its subclasses (a metatype check), or, once the
  /// source is built, by casting its value. A metatype check cannot tell whether a type
  /// conforms to a protocol (`Value.self is Target.Type` asks whether it *is* the existential),
  /// so a protocol target is checked once the source is built. A source that does not conform
  /// makes resolving the target fail with ``DeferredError/Code/notConforming``.
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
    // A shim specialised in the caller's module: see `registerByType`.
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
    // The source's scope and priority: a forward is built when its source is, so advice about
    // a forward's priority is advice about its source's. A weak source's forward is made at
    // each resolve from the source's object of the moment: it holds nothing itself, so the
    // source is let go when its last holder lets it go, whatever type the target is.
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
