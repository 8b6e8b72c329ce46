extension Container {
  /// Returns the service registered for `type` and `name`, building it first if it is not
  /// built yet.
  ///
  /// A built singleton is returned by a lock-free read. One that is not built yet is built on
  /// the calling thread, after the services it depends on; if another thread is building it,
  /// this one waits for that build instead of starting its own.
  ///
  /// ```swift
  /// let storage = try container.resolve(Storage.self)
  /// let cache: Storage = try container.resolve(name: "cache")
  /// ```
  ///
  /// - Parameters:
  ///   - type: The service's type; it may be left out where the compiler can infer it.
  ///   - name: The registration's name, if it has one.
  /// - Returns: The service.
  /// - Throws: ``DeferredError``, naming the service and the chain that needed it: the
  ///   service or one it needs is missing, a factory threw, the services form a cycle, or a
  ///   wait for another thread's build ran past ``waitLimit``.
  @inlinable @inline(__always)
  public func resolve<Value>(
    _ type: Value.Type = Value.self, name: String? = nil
  ) throws(DeferredError) -> Value {
    if let object = try immediateObject(ObjectIdentifier(Value.self), name, lookupHash(of: name)) {
      return valueOfObject(object, as: Value.self)
    }
    return try resolveSlow(ServiceKey<Value>(name: name))
  }

  /// Returns the service registered for `key`, building it first if it is not built yet.
  ///
  /// - Parameter key: The service's key.
  /// - Returns: The service.
  /// - Throws: ``DeferredError``, as ``resolve(_:name:)``.
  @inlinable @inline(__always)
  public func resolve<Value>(_ key: ServiceKey<Value>) throws(DeferredError) -> Value {
    if let object = try immediateObject(ObjectIdentifier(Value.self), key.name, key.nameHash) {
      return valueOfObject(object, as: Value.self)
    }
    return try resolveSlow(key)
  }

  /// Resolves a service that is not built yet, or is transient (the part of ``resolve(_:)``
  /// that is not inlined).
  @usableFromInline
  func resolveSlow<Value>(_ key: ServiceKey<Value>) throws(DeferredError) -> Value {
    try resolve(key, context: nil)
  }

  /// Returns the service registered for `type` and `name`, and stops the program with the
  /// error's message if it cannot: for code that treats a missing or failing service as a
  /// programming error.
  ///
  /// - Parameters:
  ///   - type: The service's type; it may be left out where the compiler can infer it.
  ///   - name: The registration's name, if it has one.
  /// - Returns: The service.
  @inlinable @inline(__always)
  public func require<Value>(
    _ type: Value.Type = Value.self, name: String? = nil
  ) -> Value {
    require(ServiceKey<Value>(name: name))
  }

  /// Returns the service registered for `key`, and stops the program with the error's message
  /// if it cannot.
  ///
  /// - Parameter key: The service's key.
  /// - Returns: The service.
  @inlinable @inline(__always)
  public func require<Value>(_ key: ServiceKey<Value>) -> Value {
    if let object = publishedObject(ObjectIdentifier(Value.self), key.name, key.nameHash) {
      return valueOfObject(object, as: Value.self)
    }
    return requireSlow(key)
  }

  @usableFromInline
  func requireSlow<Value>(_ key: ServiceKey<Value>) -> Value {
    do {
      return try resolve(key, context: nil)
    } catch {
      fatalError("Deferred: \(error)")
    }
  }

  /// Returns the service registered for `type` and `name`, suspending while it is built;
  /// blocks no thread.
  ///
  /// The awaiting form: it is how async code waits for a build, and the only way to resolve a
  /// service with an `async` factory before it is built. A synchronous service that is not
  /// built yet is built on a Dispatch queue while the caller is suspended (a main-actor one on
  /// the main actor); one another thread is building is awaited. A built service is returned
  /// at once, on the caller's actor: a `@MainActor` caller does not hop.
  ///
  /// From async code, the synchronous ``resolve(_:name:)`` also works: it returns a built
  /// service without suspending, and builds one that is not built on the calling thread.
  ///
  /// ```swift
  /// let sync = try await container.awaitService(SyncService.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The service's type; it may be left out where the compiler can infer it.
  ///   - name: The registration's name, if it has one.
  ///   - isolation: The caller's actor, which the call stays on; filled in for you.
  /// - Returns: The service.
  /// - Throws: ``DeferredError``, as the synchronous ``resolve(_:name:)``.
  public func awaitService<Value: Sendable>(
    _ type: Value.Type = Value.self, name: String? = nil,
    isolation: isolated (any Actor)? = #isolation
  ) async throws(DeferredError) -> Value {
    try await resolveAsync(ServiceKey<Value>(name: name), context: nil)
  }

  /// Returns the service registered for `key`, suspending while it is built; blocks no thread.
  ///
  /// - Parameters:
  ///   - key: The service's key.
  ///   - isolation: The caller's actor, which the call stays on; filled in for you.
  /// - Returns: The service.
  /// - Throws: ``DeferredError``, as the synchronous ``resolve(_:name:)``.
  public func awaitService<Value: Sendable>(
    _ key: ServiceKey<Value>, isolation: isolated (any Actor)? = #isolation
  ) async throws(DeferredError) -> Value {
    try await resolveAsync(key, context: nil)
  }

  func resolveAsync<Value: Sendable>(
    _ key: ServiceKey<Value>, context: BuildContext?
  ) async throws(DeferredError) -> Value {
    guard
      let node = lookup(ObjectIdentifier(Value.self), key.name, key.nameHash)
        ?? emptyCollection(key.erased)
    else {
      // An optional dependency: the wrapped type's service (built by the walk before an
      // `async` factory runs, so found at once), or `nil`.
      if let value = try optionalDependency(key, context: context) { return value }
      throw missing(key.erased, chain: context?.chain ?? [])
    }
    if let object = node.publishedObject(handedOutToFactory: context != nil) {
      return valueOfObject(object, as: Value.self)
    }
    node.markHandedOut(toFactory: context != nil)
    if let held = node.held() { return held.read(as: Value.self) }
    return try await node.resolveSlowAsync(context ?? BuildContext(thread: .task), as: Value.self)
  }

  func resolve<Value>(
    _ key: ServiceKey<Value>, context: BuildContext?
  ) throws(DeferredError) -> Value {
    // One lookup for both the built value and the node (a transient's resolve needs both).
    guard
      let node = lookup(ObjectIdentifier(Value.self), key.name, key.nameHash)
        ?? emptyCollection(key.erased)
    else {
      // An optional dependency: the wrapped type's service, or `nil`.
      if let value = try optionalDependency(key, context: context) { return value }
      let context = context ?? .current
      throw missing(key.erased, chain: context.chain)
    }
    let toFactory = context != nil
    if let object = node.publishedObject(handedOutToFactory: toFactory) {
      return valueOfObject(object, as: Value.self)
    }
    node.markHandedOut(toFactory: toFactory)
    if let held = node.held() { return held.read(as: Value.self) }
    return try node.resolveSlow(context ?? .current, as: Value.self)
  }
}

extension AnyNode {
  /// The published value (its object), if the singleton is built, noted as handed out: to a
  /// factory, or to the app (each flag is stored once, not on every resolve).
  @inline(__always)
  func publishedObject(handedOutToFactory toFactory: Bool) -> AnyObject? {
    guard let object = value.load() else { return nil }
    if toFactory { wasNeeded.set() } else { wasResolved.set() }
    return object
  }

  /// Notes that the value is being handed out: to a factory, or to the app.
  @inline(__always)
  func markHandedOut(toFactory: Bool) {
    if toFactory { wasNeeded.set() } else { wasResolved.set() }
  }
}

extension Container {
  /// The node for `type` and `name`: from the published table, without a lock, if it is
  /// there.
  @inline(__always)
  func lookup(_ type: ObjectIdentifier, _ name: String?, _ nameHash: UInt) -> AnyNode? {
    lookup(bits: UInt(bitPattern: type), name, nameHash)
  }

  /// The node for `key`.
  @inline(__always)
  func lookup(_ key: AnyServiceKey) -> AnyNode? {
    lookup(bits: UInt(bitPattern: key.typeID), key.name, key.nameHash)
  }

  /// The node for the type with metadata address `bits` and `name`.
  @inline(__always)
  private func lookup(bits: UInt, _ name: String?, _ nameHash: UInt) -> AnyNode? {
    if let node = published.load()?.find(bits, name, nameHash) { return node }
    return lookupSlow(bits, name, nameHash)
  }

  /// The resolve hot path's out-of-line part, not generic: the value of the built singleton
  /// registered for `type` and `name`, as its object (``objectOfValue(_:)``), or `nil` if it
  /// is not built (or not a singleton, or not registered).
  @usableFromInline
  func publishedObject(_ type: ObjectIdentifier, _ name: String?, _ nameHash: UInt) -> AnyObject? {
    lookup(type, name, nameHash)?.publishedObject(handedOutToFactory: false)
  }

  /// The resolve hot path's out-of-line part, with one lookup for what it can answer at once:
  /// the value of the built singleton registered for `type` and `name`, or a value of the
  /// transient one if it is made at once (``AnyNode/makesAtOnce``, on an idle context), as its
  /// object (``objectOfValue(_:)``); `nil` for anything else, which the generic slow path
  /// resolves.
  @usableFromInline
  func immediateObject(_ type: ObjectIdentifier, _ name: String?, _ nameHash: UInt)
    throws(DeferredError) -> AnyObject?
  {
    guard let node = lookup(type, name, nameHash) else { return nil }
    if let object = node.publishedObject(handedOutToFactory: false) { return object }
    guard node.makesAtOnce else { return nil }
    let context = BuildContext.current
    guard context.isIdle else { return nil }
    node.wasResolved.set()
    return try node.makeAtOnce(context)
  }

  /// A key the published table does not hold, or no table published yet.
  ///
  /// A container without a parent looks it up in its live table, under its lock, and
  /// publishes that table when the published one is out of date (``Registry/lookedUp(_:)``).
  /// A child asks its parent for what it does not hold, unless an ancestor registered
  /// something since it last worked out its copies: it then works them out again first. A
  /// registration bumps its container's generation under the registry's lock, before anyone
  /// else can find its node, so a child that found the node through its parent sees the new
  /// generation when it checks again, and starts over, every time: the node it found may be
  /// one the ancestor registered since, which this child must copy (it depends on one of the
  /// child's overrides). It starts over only when an ancestor registers during its lookup.
  @inline(never)
  private func lookupSlow(_ bits: UInt, _ name: String?, _ nameHash: UInt) -> AnyNode? {
    guard let parent else {
      return registry.withLock { registry in
        if registry.isShutDown { return nil }
        registry.lookedUp(publishingTo: self)
        return registry.table.find(bits, name, nameHash)
      }
    }
    while true {
      let seen = copiesGeneration.loadAcquire()
      let (isShutDown, own, observer) = registry.withLock {
        registry -> (Bool, AnyNode?, (@Sendable () -> Void)?) in
        if registry.isShutDown { return (true, nil, nil) }
        registry.lookedUp(publishingTo: self)
        return (false, registry.table.find(bits, name, nameHash), registry.parentLookupObserver)
      }
      if isShutDown { return nil }
      if seen != 0 && seen == ancestorGeneration() {
        if let own { return own }
        observer?()
        let node = parent.lookup(bits: bits, name, nameHash)
        if ancestorGeneration() == seen { return node }
      }
      currentTable()
    }
  }

  /// Tells `observer`, on the looking-up thread, each time a lookup this child's table misses
  /// is about to ask the parent, its copies up to date: for tests that force a registration
  /// in the parent into that moment. `nil` stops telling.
  func onParentLookup(_ observer: (@Sendable () -> Void)?) {
    registry.withLock { $0.parentLookupObserver = observer }
  }

  /// The sum of the ancestors' generations, plus one: it changes whenever one of them
  /// registers.
  @inline(__always)
  func ancestorGeneration() -> UInt64 {
    var sum: UInt64 = 1
    var ancestor = parent
    while let container = ancestor {
      sum &+= container.generation.loadAcquire()
      ancestor = container.parent
    }
    return sum
  }
}
