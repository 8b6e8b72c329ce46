extension Container {
  /// Registers a service whose factory's parameters are its dependencies.
  ///
  /// Registering runs nothing: the factory runs the first time the service is needed, with its
  /// dependencies resolved (and built first if need be). Because the dependencies are declared
  /// by the factory's parameter types, the container knows the graph before building anything:
  /// ``validate()`` checks it, and builds walk it without recursion.
  ///
  /// ```swift
  /// try container.register(Storage.self) { try FileStorage() }
  /// try container.register(SyncService.self, SyncService.init(storage:network:))
  /// try container.register(Clock.self, scope: .transient) { SystemClock() }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as (a protocol or a concrete type).
  ///   - name: A name, where one type has several registrations.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value from its dependencies, each resolved by its type.
  /// - Returns: The service's key.
  /// - Throws: ``DeferredError/Code/invalidScope`` for a weak service whose values are not
  ///   objects, or a transient with a priority; ``DeferredError/Code/duplicateRegistration`` if
  ///   the key is registered and `replacing` is `false`;
  ///   ``DeferredError/Code/registrationTooLate`` if the service is built already, if this is a
  ///   child that has resolved, or if `replacing` and a child of this container has resolved;
  ///   ``DeferredError/Code/shutDown`` once the container is shut down.
  @discardableResult @inlinable @inline(never)
  public func register<Value: Sendable, each Dependency>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    // Factories of up to six parameters call Container+RegisterArity.swift's forms instead.
    try registerByType(name, scope, priority, replacing, factory)
  }

  /// The parameter form's work. Its public form is a shim, specialised in the caller's module
  /// and never inlined, so that each pack's metadata is made and freed in the shim, not in the
  /// composition root (Benchmarks/README.md, "Why the core is shaped as it is"); so are the
  /// other pack forms'.
  @usableFromInline
  func registerByType<Value: Sendable, each Dependency>(
    _ name: String?, _ scope: Scope, _ priority: Priority, _ replacing: Bool,
    _ factory: @escaping @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    // The closure captures no tuple of keys: registering makes no tuple type at run time.
    try add(
      ServiceKey(name: name), scope: scope, priority: priority, replacing: replacing,
      dependencies: declared(repeat (each Dependency).self),
      factory: .sync { resolver in
        return objectOfValue(try factory(repeat resolver.dependency((each Dependency).self)))
      })
  }

  /// Registers a service under `key` whose factory's parameters are the services of the
  /// `dependencies` keys, in order: the form for dependencies registered under a name.
  ///
  /// ```swift
  /// let disk = ServiceKey<Storage>(name: "disk")
  /// try container.register(disk) { try FileStorage() }
  /// try container.register(ServiceKey<Cache>(), dependencies: disk, factory: Cache.init(storage:))
  /// ```
  ///
  /// - Parameters:
  ///   - key: The key the service is resolved by.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - dependencies: The keys of the factory's parameters.
  ///   - factory: Makes the value from its dependencies.
  /// - Returns: `key`.
  /// - Throws: As ``register(_:name:scope:priority:replacing:_:)-2f3f1``.
  @discardableResult @inlinable @inline(never)
  public func register<Value: Sendable, each Dependency>(
    _ key: ServiceKey<Value>, scope: Scope = .singleton, priority: Priority = .onDemand,
    replacing: Bool = false, dependencies: repeat ServiceKey<each Dependency>,
    factory: @escaping @Sendable (repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try registerByKeys(
      key, scope, priority, replacing, dependencies: repeat each dependencies,
      factory: .calling(factory, with: repeat each dependencies))
  }

  /// The keyed parameter forms' work, sync or `async`; the shim makes the factory, so that
  /// the pack is built in its copy.
  @usableFromInline
  func registerByKeys<Value: Sendable, each Dependency>(
    _ key: ServiceKey<Value>, _ scope: Scope, _ priority: Priority, _ replacing: Bool,
    dependencies: repeat ServiceKey<each Dependency>, factory: Factory
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      key, scope: scope, priority: priority, replacing: replacing,
      dependencies: declared(repeat each dependencies), factory: factory)
  }

  /// Registers a service whose factory resolves what it needs itself, for dependencies that
  /// are only known while it runs.
  ///
  /// The container records what the factory resolves as the service's dependencies. Prefer the
  /// form whose parameters are the dependencies where it fits: its graph is known before
  /// anything is built.
  ///
  /// ```swift
  /// try container.register(Backend.self) { resolver in
  ///   try resolver.resolve(Settings.self).useStaging
  ///     ? try resolver.resolve(Backend.self, name: "staging")
  ///     : try resolver.resolve(Backend.self, name: "production")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as.
  ///   - name: A name, where one type has several registrations.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value, resolving its dependencies from the ``Resolver`` it is given.
  /// - Returns: The service's key.
  /// - Throws: As the form whose parameters are the dependencies.
  @discardableResult
  public func register<Value: Sendable>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (borrowing Resolver) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try register(
      ServiceKey(name: name), scope: scope, priority: priority, replacing: replacing, factory)
  }

  /// As ``register(_:name:scope:priority:replacing:_:)-(_,_,Scope,_,_,(Resolver)->Value)``
  /// without options: a singleton, built on demand.
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as.
  ///   - factory: Makes the value, resolving its dependencies from the ``Resolver`` it is given.
  /// - Returns: The service's key.
  /// - Throws: As the form with options.
  @discardableResult
  public func register<Value: Sendable>(
    _ type: Value.Type, _ factory: @escaping @Sendable (borrowing Resolver) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    // The common call, without default arguments to generate in the caller.
    try add(
      ServiceKey(), scope: .singleton, priority: .onDemand, replacing: false,
      dependencies: nil, factory: .producing(factory))
  }

  /// Registers a service under `key` whose factory resolves what it needs itself.
  ///
  /// - Parameters:
  ///   - key: The key the service is resolved by.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value, resolving its dependencies from the ``Resolver`` it is given.
  /// - Returns: `key`.
  /// - Throws: As the form whose parameters are the dependencies.
  @discardableResult
  public func register<Value: Sendable>(
    _ key: ServiceKey<Value>, scope: Scope = .singleton, priority: Priority = .onDemand,
    replacing: Bool = false, _ factory: @escaping @Sendable (borrowing Resolver) throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      key, scope: scope, priority: priority, replacing: replacing, dependencies: nil,
      factory: .producing(factory))
  }

  /// Registers a service built by an `async` factory whose parameters are its dependencies: a
  /// service such as network sync, naturally async.
  ///
  /// It is scheduled like any other and resolved with `awaitService`; a synchronous resolve of
  /// it, before it is built, fails with ``DeferredError/Code/asyncService``.
  ///
  /// ```swift
  /// try container.register(SyncService.self, priority: .afterFirstFrame()) {
  ///   (storage: Storage, network: Network) async throws in
  ///   try await SyncService.connect(storage: storage, network: network)
  /// }
  /// let sync = try await container.awaitService(SyncService.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the service is resolved as.
  ///   - name: A name, where one type has several registrations.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value from its dependencies, each resolved by its type.
  /// - Returns: The service's key.
  /// - Throws: As the synchronous form.
  @discardableResult @inlinable @inline(never)
  public func register<Value: Sendable, each Dependency: Sendable>(
    _ type: Value.Type = Value.self, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (repeat each Dependency) async throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try registerAsyncByType(name, scope, priority, replacing, factory)
  }

  /// The `async` parameter form's work.
  @usableFromInline
  func registerAsyncByType<Value: Sendable, each Dependency: Sendable>(
    _ name: String?, _ scope: Scope, _ priority: Priority, _ replacing: Bool,
    _ factory: @escaping @Sendable (repeat each Dependency) async throws -> Value,
    isMainActor: Bool = false
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      ServiceKey(name: name), scope: scope, priority: priority, replacing: replacing,
      dependencies: declared(repeat (each Dependency).self),
      factory: .async { resolver in
        return objectOfValue(
          try await factory(repeat await resolver.resolve(ServiceKey<each Dependency>())))
      }, isMainActor: isMainActor)
  }

  /// Registers a service under `key` built by an `async` factory whose parameters are the
  /// services of the `dependencies` keys.
  ///
  /// - Parameters:
  ///   - key: The key the service is resolved by.
  ///   - scope: How long the value lives (``Scope``); ``Scope/singleton`` by default.
  ///   - priority: When the service is built during launch; ``Priority/onDemand`` by default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - dependencies: The keys of the factory's parameters.
  ///   - factory: Makes the value from its dependencies.
  /// - Returns: `key`.
  /// - Throws: As the synchronous form.
  @discardableResult @inlinable @inline(never)
  public func register<Value: Sendable, each Dependency: Sendable>(
    _ key: ServiceKey<Value>, scope: Scope = .singleton, priority: Priority = .onDemand,
    replacing: Bool = false, dependencies: repeat ServiceKey<each Dependency>,
    factory: @escaping @Sendable (repeat each Dependency) async throws -> Value
  ) throws(DeferredError) -> ServiceKey<Value> {
    try registerByKeys(
      key, scope, priority, replacing, dependencies: repeat each dependencies,
      factory: .calling(factory, with: repeat each dependencies))
  }

  /// The unnamed keys of a pack of dependency types, in order: one or two kept inline, more
  /// in one array of the right size. Each type is appended as `(each Dependency).self`: an
  /// element of the pack of metatypes would need that pack's metadata.
  func declared<each Dependency>(
    _: repeat (each Dependency).Type
  ) -> DependencyList {
    var count = 0
    for _ in repeat (each Dependency).self { count += 1 }
    var keys = DependencyList()
    repeat keys.append(type: (each Dependency).self, capacity: count)
    return keys
  }

  /// The erased keys of a pack of dependency keys, in order.
  func declared<each Dependency>(
    _ dependencies: repeat ServiceKey<each Dependency>
  ) -> DependencyList {
    var count = 0
    var named = false
    for dependency in repeat each dependencies {
      count += 1
      if dependency.name != nil { named = true }
    }
    if !named { return declared(repeat (each Dependency).self) }
    var keys: [AnyServiceKey] = []
    keys.reserveCapacity(count)
    for dependency in repeat each dependencies { keys.append(dependency.erased) }
    return DependencyList(keys)
  }

  /// Registers a node for `key`: every form's path, which erases the key's type.
  @inline(__always)
  func add<Value>(
    _ key: consuming ServiceKey<Value>, scope: Scope, priority: Priority, replacing: Bool,
    dependencies: consuming DependencyList?, factory: consuming Factory,
    isMainActor: Bool = false, note: RegistrationNote? = nil
  ) throws(DeferredError) -> ServiceKey<Value> {
    try add(
      key.erased, scope: scope, priority: priority, replacing: replacing,
      dependencies: dependencies, factory: factory, isMainActor: isMainActor, note: note)
    return key
  }

  /// Registers a node for `key`; not generic, so that an unspecialised form passes only the
  /// key's type. What only a refused or unusual registration needs is `@inline(never)`. The
  /// key, the dependencies and the factory are moved into the node, not copied.
  func add(
    _ key: consuming AnyServiceKey, scope: Scope, priority: Priority, replacing: Bool,
    dependencies: consuming DependencyList?, factory: consuming Factory,
    isMainActor: Bool = false, note: RegistrationNote? = nil
  ) throws(DeferredError) {
    if scope.kind != .singleton { try checkScope(scope, priority: priority, of: key) }
    try add(
      AnyNode(
        key: key, scope: scope, priority: priority, dependencies: dependencies, owner: self,
        factory: factory, isMainActor: isMainActor),
      replacing: replacing, note: note)
  }

  /// Refuses a weak service whose values are not objects, and a transient with a priority;
  /// notes that a named scope is registered.
  @inline(never)
  func checkScope(_ scope: Scope, priority: Priority, of key: borrowing AnyServiceKey)
    throws(DeferredError)
  {
    if scope == .transient && priority != .onDemand {
      // A transient is made at each resolve, by whoever resolves it: a launch has nothing to
      // build for it, so a priority would be silently ignored.
      let key = copy key
      throw DeferredError(
        .invalidScope, key: key, chain: [key],
        detail: "as a transient with the priority \(priority): a transient is made anew each"
          + " time it is resolved, so a launch has nothing to build for it. Give the priority to"
          + " the singletons it needs (validate() follows its edges to them), or register it"
          + " as a singleton")
    }
    if scope == .weakObject && !isObjectType(key.type) {
      let key = copy key
      throw DeferredError(
        .invalidScope, key: key, chain: [key],
        detail: "as weak: \(key.type) is not a class nor a protocol bound to classes, and a"
          + " weak reference holds only objects: register the class itself as weak and"
          + " forward \(key.type) to it (`forward(_:as:_:)`), declare the protocol"
          + " `: AnyObject` if only classes conform to it, or give it another scope (a"
          + " singleton, or a named scope that `reset(_:)` drops)")
    }
    if scope.isNamed { AnyNode.namedScopesRegistered.storeRelease(1) }
  }

  @inline(__always)
  func add(_ node: AnyNode, replacing: Bool, note: RegistrationNote? = nil) throws(DeferredError) {
    try checkPhase(node)
    try registry.withLock { registry throws(DeferredError) in
      try checkOpen(node, registry)
      try insert(node, replacing: replacing, note: note, into: &registry)
    }
    scheduleIfLaunched(node)
  }

  /// Refuses a critical registration once the launch has begun.
  @inline(__always)
  func checkPhase(_ node: AnyNode) throws(DeferredError) {
    // The raw phase, not made a `Phase`; the priority is read only once launched.
    if launchPhase.loadAcquire() != UInt64(LaunchSchedule.Phase.notLaunched.rawValue) {
      try checkLaunched(node)
    }
  }

  /// Refuses a critical registration: the launch has begun.
  @inline(never)
  func checkLaunched(_ node: AnyNode) throws(DeferredError) {
    if node.priority.isCritical {
      // The first frame is gone: a critical service can no longer be built before it.
      throw DeferredError(
        .registrationTooLate, key: node.key, chain: [node.key],
        detail: "critical services must be registered before launch()")
    }
  }

  /// Refuses a registration in a container shut down, or in a child that has resolved. Under
  /// the lock.
  @inline(__always)
  func checkOpen(_ node: AnyNode, _ registry: borrowing Registry) throws(DeferredError) {
    if registry.isShutDown || (parent != nil && registry.hasPublished) {
      throw closedError(node, isShutDown: registry.isShutDown)
    }
  }

  /// The error for a registration in a container shut down, or in a child that has resolved.
  @inline(never)
  func closedError(_ node: AnyNode, isShutDown: Bool) -> DeferredError {
    isShutDown
      ? DeferredError(.shutDown, key: node.key, chain: [node.key], detail: "register")
      : DeferredError(.registrationTooLate, key: node.key, chain: [node.key])
  }

  /// Puts `node` in the registry and its table, replacing a registration of its key if
  /// `replacing`; keeps its note, with the module the calling thread installs. Under the lock.
  @inline(__always)
  func insert(
    _ node: AnyNode, replacing: Bool, note: RegistrationNote?, into registry: inout Registry
  ) throws(DeferredError) {
    // One probe sets the node if its key is new, or finds the key's node and its slot. (A
    // child's copies join the table only once it has published, and it registers no more.)
    let (slot, existing) = registry.insertIfNew(node)
    if let existing {
      try retire(existing, for: node, replacing: replacing, in: &registry)
    }
    // Most registrations have no note: nothing to keep, nothing to forget.
    if note != nil || !registry.installing.isEmpty || !registry.notes.isEmpty {
      keep(note, of: node.key, in: &registry)
    }
    // Bumped before the node is published, so that a child that finds it through this
    // container sees that something changed.
    generation.addRelaxed(1)
    if existing != nil { registry.replace(at: slot, with: node, publishingTo: self) }
  }

  /// Retires `existing`, the node of `node`'s key, for `node`, or refuses the registration.
  /// Under the lock.
  @inline(never)
  func retire(
    _ existing: AnyNode, for node: AnyNode, replacing: Bool, in registry: inout Registry
  ) throws(DeferredError) {
    // Refused while a live child has resolved through this container, or once it is built
    // or being built. Its queued work moves to the replacement, which a resolve that found it
    // builds.
    let child = replacing ? registry.livePublishedChild : nil
    guard replacing && child == nil && existing.retire(replacedBy: node) else {
      throw DeferredError(
        replacing ? .registrationTooLate : .duplicateRegistration, key: node.key,
        chain: [node.key],
        detail: child.map {
          "the child container made at \($0.origin ?? "?") has resolved through this"
            + " container already; replace it before any child resolves, or register the"
            + " replacement in the child"
        })
    }
    registry.replaced.append(existing)
  }

  /// Keeps the note of the registration of `key`, with the module the calling thread
  /// installs, or forgets the note of the registration it replaces. Under the lock.
  @inline(never)
  func keep(_ note: RegistrationNote?, of key: AnyServiceKey, in registry: inout Registry) {
    var note = note
    if let module = registry.installingModule {
      note = note ?? RegistrationNote()
      note?.module = module
    }
    registry.notes[key] = note
  }
}

extension Factory {
  /// A factory that calls `make` with the services of `keys`, in order.
  @usableFromInline
  static func calling<Value: Sendable, each Dependency>(
    _ make: @escaping @Sendable (repeat each Dependency) throws -> Value,
    with keys: repeat ServiceKey<each Dependency>
  ) -> Factory {
    .sync(callingDeclared(make))
  }

  /// Calls `make` with the services of the node's declared dependencies, read back in order:
  /// an unspecialised call makes no tuple type of keys.
  static func callingDeclared<Value, each Dependency>(
    _ make: @escaping @Sendable (repeat each Dependency) throws -> Value
  ) -> @Sendable (borrowing Resolver) throws -> AnyObject {
    { resolver in
      var position = 0
      return objectOfValue(
        try make(repeat resolver.resolveDeclared((each Dependency).self, at: &position)))
    }
  }

  /// An `async` factory that calls `make` with the services of `keys`, in order.
  @usableFromInline
  static func calling<Value: Sendable, each Dependency: Sendable>(
    _ make: @escaping @Sendable (repeat each Dependency) async throws -> Value,
    with keys: repeat ServiceKey<each Dependency>
  ) -> Factory {
    let keys = (repeat each keys)
    return .async { resolver in
      return objectOfValue(try await make(repeat await resolver.resolve(each keys)))
    }
  }
}
