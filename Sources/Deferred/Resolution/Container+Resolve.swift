extension Container {
  /// Returns the service registered for `type` and `name`, building it first if it is not
  /// built yet.
  ///
  /// A built singleton is returned by a lock-free read. Otherwise it is built on the calling
  /// thread after the services it depends on, or, if another thread is building it, waited for.
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

  /// The part of ``resolve(_:)`` that is not inlined.
  @usableFromInline
  func resolveSlow<Value>(_ key: ServiceKey<Value>) throws(DeferredError) -> Value {
    try resolve(key, context: nil)
  }

  /// Returns the service registered for `type` and `name`, or stops the program with the
  /// error's message: for code that treats a missing or failing service as a programming error.
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

  /// Returns the service registered for `key`, or stops the program with the error's message.
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
  /// The only way to resolve an `async` service before it is built. A synchronous service is
  /// built on a Dispatch queue (a main-actor one on the main actor) while the caller is
  /// suspended. A built service is returned at once, on the caller's actor. (The synchronous
  /// ``resolve(_:name:)`` also works from async code, building on the calling thread.)
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
    guard let node = findNode(for: key) else {
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
    guard let node = findNode(for: key) else {
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

  /// The node `key` resolves to: its registration, or an array key's empty collection.
  func findNode<Value>(for key: ServiceKey<Value>) -> AnyNode? {
    lookup(ObjectIdentifier(Value.self), key.name, key.nameHash) ?? emptyCollection(key.erased)
  }
}

extension AnyNode {
  /// The published value, if the singleton is built, noted as handed out.
  @inline(__always)
  func publishedObject(handedOutToFactory toFactory: Bool) -> AnyObject? {
    guard let object = value.load() else { return nil }
    markHandedOut(toFactory: toFactory)
    return object
  }

  /// Notes that the value is being handed out: to a factory, or to the app.
  @inline(__always)
  func markHandedOut(toFactory: Bool) {
    if toFactory { wasNeeded.set() } else { wasResolved.set() }
  }
}

extension Container {
  /// The node for `type` and `name`: from the published table, without a lock, if it is there.
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

  /// The resolve hot path's out-of-line part, not generic: the built singleton's value
  /// (``objectOfValue(_:)``), or `nil`.
  @usableFromInline
  func publishedObject(_ type: ObjectIdentifier, _ name: String?, _ nameHash: UInt) -> AnyObject? {
    lookup(type, name, nameHash)?.publishedObject(handedOutToFactory: false)
  }

  /// The resolve hot path's out-of-line part: the built singleton's value, or a transient's
  /// made at once (``AnyNode/makesAtOnce``); `nil` for anything else.
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

  /// A key the published table does not hold, or no table published yet: looked up in the live
  /// table, under the lock, which is published if out of date (``Registry/lookedUp(publishingTo:)``).
  ///
  /// A child asks its parent for what it does not hold, with its copies up to date. A
  /// registration bumps its container's generation before anyone can find its node, so a
  /// child that found an ancestor's new node sees the change and starts over (it may have to
  /// copy that node).
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

  /// Tells `observer` each time a lookup is about to ask the parent, for tests that register in
  /// the parent at that moment. `nil` stops telling.
  func onParentLookup(_ observer: (@Sendable () -> Void)?) {
    registry.withLock { $0.parentLookupObserver = observer }
  }

  /// The sum of the ancestors' generations, plus one: it changes whenever one registers.
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
