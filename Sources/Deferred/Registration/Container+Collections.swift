extension Container {
  /// Contributes a member to a collection: the factory makes one element, from its
  /// dependencies, declared by its parameters. The collection resolves as an array of its
  /// members, in the order they were contributed.
  ///
  /// Each member is a singleton with its own priority. The collection is a singleton whose
  /// dependencies are its members; it is critical when every member is, deferred when none is
  /// on demand, on demand otherwise.
  ///
  /// A child container may contribute more: its collection is its parent's members, then its
  /// own. Contributing to a collection already built or handed out empty, or to a parent's
  /// once one of its children has resolved, fails with
  /// ``DeferredError/Code/registrationTooLate`` and leaves nothing behind.
  ///
  /// ```swift
  /// let sinks = CollectionKey<any AnalyticsSink>()
  /// try container.contribute(to: sinks, priority: .critical) { ConsoleSink() }
  /// try container.contribute(to: sinks) { (network: Network) in RemoteSink(network: network) }
  /// let all = try container.resolve(sinks)  // [ConsoleSink, RemoteSink]
  /// ```
  ///
  /// - Parameters:
  ///   - collection: The collection's key.
  ///   - priority: When the member is built during launch; ``Priority/onDemand`` by default.
  ///   - factory: Makes the member from its dependencies, each resolved by its type.
  /// - Throws: ``DeferredError/Code/registrationTooLate`` if the collection was built already
  ///   (or as another registration would); ``DeferredError/Code/duplicateRegistration`` if
  ///   `[Element]` is registered as a service, not contributed to.
  @inlinable @inline(never)
  public func contribute<Element: Sendable, each Dependency: Sendable>(
    to collection: CollectionKey<Element>, priority: Priority = .onDemand,
    _ factory: @escaping @Sendable (repeat each Dependency) throws -> Element
  ) throws(DeferredError) {
    try contributeByType(collection, priority, factory)
  }

  /// The contribution's work.
  @usableFromInline
  func contributeByType<Element: Sendable, each Dependency: Sendable>(
    _ collection: CollectionKey<Element>, _ priority: Priority,
    _ factory: @escaping @Sendable (repeat each Dependency) throws -> Element
  ) throws(DeferredError) {
    try contribute(
      collection, priority: priority, dependencies: declared(repeat (each Dependency).self),
      factory: .sync { resolver in
        return objectOfValue(
          CollectionMember(value: try factory(repeat resolver.dependency((each Dependency).self))))
      })
  }

  /// Adds a member node and the collection's new node, which replaces the one before, in one
  /// step under the registry's lock (two contributions at once lose neither).
  func contribute<Element: Sendable>(
    _ collection: CollectionKey<Element>, priority: Priority, dependencies: DependencyList,
    factory: Factory
  ) throws(DeferredError) {
    let key = collection.service.erased
    let inherited = parent?.note(for: key)?.members ?? []
    var depth = 0
    var ancestor = parent
    while let container = ancestor {
      depth += 1
      ancestor = container.parent
    }
    let (member, node) = try registry.withLock {
      registry throws(DeferredError) -> (AnyNode, AnyNode) in
      let own = registry.notes[key]?.members
      let existing = registry.table.find(key)
      if own == nil, existing != nil {
        throw DeferredError(
          .duplicateRegistration, key: key, chain: [key],
          detail: "it is registered as a service, not a collection")
      }
      if registry.emptyCollectionsHandedOut.contains(key) {
        throw DeferredError(
          .registrationTooLate, key: key, chain: [key],
          detail: "it was handed out empty already; contribute to a collection before it is"
            + " resolved")
      }
      // Checked before the member is added: a refused contribution leaves nothing behind.
      if own != nil, let child = registry.livePublishedChild {
        throw DeferredError(
          .registrationTooLate, key: key, chain: [key],
          detail: "the child container made at \(child.origin ?? "?") has resolved through this"
            + " container already; contribute before any child resolves, or contribute in the"
            + " child")
      }
      let before = own ?? inherited
      // Numbered by the container's depth too: a child's members never take a parent's key.
      let memberKey = AnyServiceKey(
        CollectionMember<Element>.self, name: "\(collection.name ?? "")#\(depth).\(before.count)")
      let member = AnyNode(
        key: memberKey, scope: .singleton, priority: priority, dependencies: dependencies,
        owner: self, factory: factory)
      let members = before + [CollectionEntry(key: memberKey, priority: priority)]
      let node = AnyNode(
        key: key, scope: .singleton, priority: Self.collectionPriority(members.map(\.priority)),
        dependencies: DependencyList(members.map(\.key)), owner: self,
        factory: .collecting(Element.self, members.map(\.key)))
      try checkPhase(member)
      try checkPhase(node)
      try checkOpen(member, registry)
      if let existing, existing.isPublished || existing.currentBuilder() != nil {
        throw DeferredError(
          .registrationTooLate, key: memberKey, chain: [memberKey],
          detail: "\(key) was built already; contribute to a collection before it is resolved")
      }
      // A member left by a contribution refused as its collection's build began (below) is
      // replaced: no one ever resolved it.
      let orphan = registry.table.find(memberKey)
      try insert(member, replacing: orphan != nil, note: nil, into: &registry)
      do throws(DeferredError) {
        try insert(
          node, replacing: own != nil, note: RegistrationNote(members: members), into: &registry)
      } catch {
        // The collection began to build since it was checked: the member stays in the table
        // (nothing leaves it) but in no list and no collection.
        registry.unlist(memberKey)
        registry.notes[memberKey] = nil
        throw error
      }
      return (member, node)
    }
    scheduleIfLaunched(member)
    scheduleIfLaunched(node)
  }

  /// A collection's priority, from its members': critical if every member is; on demand if
  /// one is (or depends on the launch); else idle after the longest delay, if one is idle;
  /// else after the first frame.
  static func collectionPriority(_ members: [Priority]) -> Priority {
    var idle: Duration?
    var allCritical = true
    for priority in members {
      switch priority.kind {
      case .critical: continue
      case .onDemand, .when: return .onDemand
      case .afterFirstFrame: allCritical = false
      case .idle(let delay):
        allCritical = false
        idle = max(idle ?? delay.duration, delay.duration)
      }
    }
    if allCritical { return .critical }
    return idle.map { .idle(after: $0) } ?? .afterFirstFrame()
  }

  /// Returns the members of `collection`, in the order they were contributed, building those
  /// not built yet; an empty array if nothing was contributed. Once built, it is read
  /// lock-free.
  ///
  /// ```swift
  /// for sink in try container.resolve(sinks) { sink.track("launched") }
  /// ```
  ///
  /// - Parameter collection: The collection's key.
  /// - Returns: The members.
  /// - Throws: ``DeferredError`` if a member, or one of its dependencies, fails.
  @inlinable
  public func resolve<Element: Sendable>(
    _ collection: CollectionKey<Element>
  ) throws(DeferredError) -> [Element] {
    let key = collection.service
    if let object = publishedObject(ObjectIdentifier([Element].self), key.name, key.nameHash) {
      return valueOfObject(object, as: [Element].self)
    }
    return try resolveCollectionSlow(collection)
  }

  @usableFromInline
  func resolveCollectionSlow<Element: Sendable>(
    _ collection: CollectionKey<Element>
  ) throws(DeferredError) -> [Element] {
    guard handOutEmpty(collection.service.erased) else {
      return try resolve(collection.service, context: nil)
    }
    return []
  }

  /// Whether the collection of `key` has nothing contributed here or in an ancestor; if so,
  /// each of them marks it handed out empty and takes no contribution to it any more. Each is
  /// checked and marked under its lock: a contribution either comes before or is refused.
  func handOutEmpty(_ key: AnyServiceKey) -> Bool {
    guard lookup(key) == nil else { return false }
    var container: Container? = self
    while let current = container {
      let empty = current.registry.withLock { registry in
        guard
          registry.table.find(key) == nil
        else { return false }
        registry.emptyCollectionsHandedOut.insert(key)
        return true
      }
      guard empty else { return false }
      container = current.parent
    }
    return true
  }
}

extension Resolver {
  /// Returns the members of `collection`, from within a factory; an empty array if nothing
  /// was contributed.
  ///
  /// ```swift
  /// try container.register(Analytics.self) { resolver in
  ///   Analytics(sinks: try resolver.resolve(sinks))
  /// }
  /// ```
  ///
  /// - Parameter collection: The collection's key.
  /// - Returns: The members.
  /// - Throws: ``DeferredError`` if a member fails, or closes a cycle.
  public func resolve<Element: Sendable>(
    _ collection: CollectionKey<Element>
  ) throws(DeferredError) -> [Element] {
    guard container.handOutEmpty(collection.service.erased) else {
      return try resolve(collection.service)
    }
    return []
  }
}

extension Factory {
  /// The factory of a collection: its members' values, in order.
  static func collecting<Element: Sendable>(_: Element.Type, _ members: [AnyServiceKey])
    -> Factory
  {
    .sync { resolver in
      var elements: [Element] = []
      elements.reserveCapacity(members.count)
      for member in members {
        elements.append(
          try resolver.resolve(ServiceKey<CollectionMember<Element>>(name: member.name)).value)
      }
      return objectOfValue(elements)
    }
  }
}

/// An array type: a service of it with no registration and no contribution is the empty
/// collection.
protocol EmptyCollection {
  /// The empty collection's factory.
  static var emptyCollectionFactory: Factory { get }
}

extension Array: EmptyCollection {
  static var emptyCollectionFactory: Factory {
    .sync { _ in objectOfValue([Element]()) }
  }
}

extension AnyServiceKey {
  /// Whether the key is a collection's: its type is an array.
  var isCollection: Bool { type is any EmptyCollection.Type }
}

extension Container {
  /// The node of the empty collection of `key`, an array type that no lookup found: made once
  /// in the root container and handed out empty (``handOutEmpty(_:)``), so that it is a
  /// service like any other. `nil` for any other key, or once a container is shut down.
  func emptyCollection(_ key: AnyServiceKey) -> AnyNode? {
    guard let collection = key.type as? any EmptyCollection.Type else { return nil }
    guard handOutEmpty(key) else { return lookup(key) }
    var root = self
    while let parent = root.parent { root = parent }
    let node = AnyNode(
      key: key, scope: .singleton, priority: .onDemand, dependencies: DependencyList([]),
      owner: root, factory: collection.emptyCollectionFactory)
    return root.registry.withLock { registry -> AnyNode? in
      if registry.isShutDown { return nil }
      if let existing = registry.table.find(key) {
        return existing
      }
      // A new key, not critical, in a container not shut down: nothing refuses it.
      guard
        (try? root.insert(
          node, replacing: false, note: RegistrationNote(members: []), into: &registry)) != nil
      else { return nil }
      return node
    }
  }
}
