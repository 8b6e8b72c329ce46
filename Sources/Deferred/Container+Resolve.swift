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
  @inlinable
  public func resolve<Value: Sendable>(
    _ type: Value.Type = Value.self, name: String? = nil
  ) throws(DeferredError) -> Value {
    if let value = readyValue(ObjectIdentifier(Value.self), name, lookupHash(of: name)) {
      return value.load(as: Value.self)
    }
    return try resolveSlow(ServiceKey<Value>(name: name))
  }

  /// Returns the service registered for `key`, building it first if it is not built yet.
  ///
  /// - Parameter key: The service's key.
  /// - Returns: The service.
  /// - Throws: ``DeferredError``, as ``resolve(_:name:)``.
  @inlinable
  public func resolve<Value: Sendable>(_ key: ServiceKey<Value>) throws(DeferredError) -> Value {
    if let value = readyValue(ObjectIdentifier(Value.self), key.name, key.nameHash) {
      return value.load(as: Value.self)
    }
    return try resolveSlow(key)
  }

  /// Resolves a service that is not built yet, or is transient (the part of ``resolve(_:)``
  /// that is not inlined).
  @usableFromInline
  func resolveSlow<Value: Sendable>(_ key: ServiceKey<Value>) throws(DeferredError) -> Value {
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
  @inlinable
  public func require<Value: Sendable>(
    _ type: Value.Type = Value.self, name: String? = nil
  ) -> Value {
    require(ServiceKey<Value>(name: name))
  }

  /// Returns the service registered for `key`, and stops the program with the error's message
  /// if it cannot.
  ///
  /// - Parameter key: The service's key.
  /// - Returns: The service.
  @inlinable
  public func require<Value: Sendable>(_ key: ServiceKey<Value>) -> Value {
    if let value = readyValue(ObjectIdentifier(Value.self), key.name, key.nameHash) {
      return value.load(as: Value.self)
    }
    return requireSlow(key)
  }

  @usableFromInline
  func requireSlow<Value: Sendable>(_ key: ServiceKey<Value>) -> Value {
    do {
      return try resolve(key, context: nil)
    } catch {
      fatalError("Deferred: \(error)")
    }
  }

  /// Returns the service registered for `type` and `name`, suspending until it is built;
  /// blocks no thread.
  ///
  /// This is how async code resolves, and the only way to resolve a service with an `async`
  /// factory before it is built. A synchronous service that is not built yet is built on a
  /// Dispatch queue while the caller is suspended; one another thread is building is awaited.
  ///
  /// ```swift
  /// let sync = try await container.resolve(SyncService.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The service's type; it may be left out where the compiler can infer it.
  ///   - name: The registration's name, if it has one.
  /// - Returns: The service.
  /// - Throws: ``DeferredError``, as the synchronous ``resolve(_:name:)``.
  public func resolve<Value: Sendable>(
    _ type: Value.Type = Value.self, name: String? = nil
  ) async throws(DeferredError) -> Value {
    try await resolveAsync(ServiceKey<Value>(name: name), context: nil)
  }

  /// Returns the service registered for `key`, suspending until it is built; blocks no thread.
  ///
  /// - Parameter key: The service's key.
  /// - Returns: The service.
  /// - Throws: ``DeferredError``, as the synchronous ``resolve(_:name:)``.
  public func resolve<Value: Sendable>(_ key: ServiceKey<Value>) async throws(DeferredError)
    -> Value
  {
    try await resolveAsync(key, context: nil)
  }

  func resolveAsync<Value: Sendable>(
    _ key: ServiceKey<Value>, context: BuildContext?
  ) async throws(DeferredError) -> Value {
    if let value = readyValue(ObjectIdentifier(Value.self), key.name, key.nameHash) {
      return value.load(as: Value.self)
    }
    guard let found = lookup(ObjectIdentifier(Value.self), key.name, key.nameHash) else {
      throw missing(key.erased, chain: context?.chain ?? [])
    }
    let node = found.takeUnretainedValue()
    node.wasResolved.store(true, ordering: .relaxed)
    return try await node.resolveSlowAsync(context ?? BuildContext(thread: .task), as: Value.self)
  }

  func resolve<Value: Sendable>(
    _ key: ServiceKey<Value>, context: BuildContext?
  ) throws(DeferredError) -> Value {
    if let value = readyValue(ObjectIdentifier(Value.self), key.name, key.nameHash) {
      return value.load(as: Value.self)
    }
    guard let found = lookup(ObjectIdentifier(Value.self), key.name, key.nameHash) else {
      let context = context ?? .current
      throw missing(key.erased, chain: context.chain)
    }
    let node = found.takeUnretainedValue()
    node.wasResolved.store(true, ordering: .relaxed)
    return try node.resolveSlow(context ?? .current, as: Value.self)
  }
}
