extension Container {
  /// Drops every instance of a named scope, and every cached service built with one of them,
  /// so that the next resolve builds each anew: the signed-in user's session at logout.
  ///
  /// ```swift
  /// extension Scope {
  ///   static let session = Scope.named("session")
  /// }
  /// try container.register(Session.self, scope: .session) { try Session.restore() }
  /// try container.register(Inbox.self, Inbox.init(session:))  // a singleton built with it
  ///
  /// container.reset(.session)  // drops the Session and the Inbox
  /// let inbox = try container.resolve(Inbox.self)  // a new Inbox, with a new Session
  /// ```
  ///
  /// What goes: each service of `scope` this container resolves, and each service that
  /// depends on one of them, directly or through others, whatever its scope (a singleton built
  /// with the old session would keep it alive, and hand it out). The container lets them go at
  /// once; they are freed when the last caller that holds one lets it go. Nothing is built
  /// here: each is built again when next resolved (a deferred service, once launched, is not
  /// scheduled again). A build under way in the scope is not lost: it ends, and its value goes
  /// to the caller that started it and to those that were waiting for it before the reset; a
  /// caller that resolves the service after the reset gets a new build, never that one.
  ///
  /// In a container with children, each live child that has resolved something resets its
  /// own instances of the scope too, and what it built with the parent's (its copies), so that
  /// no child serves an old generation. A reset in a child drops only the child's own
  /// instances and copies: the parent's are the parent's.
  ///
  /// - Parameter scope: A named scope (``Scope/named(_:)``). Other scopes hold nothing that a
  ///   reset could drop: resetting one drops nothing.
  /// - Returns: The services dropped (had a value or a build under way), by name, sorted.
  @discardableResult
  public func reset(_ scope: Scope) -> [String] {
    guard scope.isNamed else { return [] }
    var dropped: [String] = []
    resetHere(scope, fromParent: false, into: &dropped)
    return dropped.sorted()
  }

  /// Resets `scope` among the nodes this container owns, then in its live children: from the
  /// scope's own nodes here, or, in a child whose parent reset, from every instance of it the
  /// child sees (the parent's too, which the child's copies may have been built with).
  private func resetHere(_ scope: Scope, fromParent: Bool, into dropped: inout [String]) {
    let visible = currentTable().orderedNodes
    // Reverse edges among the visible nodes; the closure of the scope's own nodes under them
    // is what was (or may be) built with an instance of the scope.
    var dependents: [ObjectIdentifier: [AnyNode]] = [:]
    for node in visible {
      for key in node.knownDependencies {
        guard let dependency = node.owner.lookup(key) else { continue }
        dependents[ObjectIdentifier(dependency), default: []].append(node)
      }
    }
    var seen: Set<ObjectIdentifier> = []
    var queue = visible.filter { $0.scope == scope && (fromParent || $0.owner === self) }
    for node in queue { seen.insert(ObjectIdentifier(node)) }
    while let node = queue.popLast() {
      // Only this container's own nodes: an ancestor's instances are the ancestor's.
      if node.owner === self, node.reset() {
        dropped.append(node.key.description)
      }
      for dependent in dependents[ObjectIdentifier(node)] ?? []
      where seen.insert(ObjectIdentifier(dependent)).inserted {
        queue.append(dependent)
      }
    }
    let children = registry.withLock { $0.publishedChildren.compactMap(\.container) }
    for child in children { child.resetHere(scope, fromParent: true, into: &dropped) }
  }
}
