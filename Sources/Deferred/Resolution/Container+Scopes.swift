import Dispatch

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
  /// depends on one of them, directly or not, whatever its scope (a singleton built with the
  /// old session would keep it). Nothing is built here: each is built again when next resolved.
  /// A build under way ends, and its value goes to its caller and earlier waiters only.
  ///
  /// Each live child resets its own instances and the copies it built with the parent's, so no
  /// child serves an old generation. A reset in a child drops only the child's own.
  ///
  /// - Parameter scope: A named scope (``Scope/named(_:)``). Other scopes hold nothing that a
  ///   reset could drop: resetting one drops nothing.
  /// - Returns: The services dropped (had a value or a build under way), by name, sorted.
  @discardableResult
  public func reset(_ scope: Scope) -> [String] {
    guard scope.isNamed else { return [] }
    // One step for every service it reaches, here and in the children: each is barred as it
    // is reset, and the bars are lifted once all are (see `SlotState`). The values dropped
    // are released after that, outside every lock: a deinit is the app's code, and may
    // resolve.
    var reset = Reset()
    reset.barrier.enter()
    resetHere(scope, fromParent: false, into: &reset)
    for node in reset.barred { node.lift(reset.barrier) }
    reset.barrier.leave()
    let dropped = reset.dropped
    reset.values = []
    // Observers hear of the reset once its bars are lifted: one that resolves a service the
    // reset dropped gets the new generation, and never waits on the reset itself.
    for notice in reset.notices { notice.container.notifyReset(scope, keys: notice.keys) }
    return dropped.sorted()
  }

  /// What a reset has done so far.
  private struct Reset {
    let barrier = DispatchGroup()
    var dropped: [String] = []
    var barred: [AnyNode] = []
    var values: [SlotState.Stored] = []
    /// What each container's reset observers hear, once the reset is over.
    var notices: [(container: Container, keys: [AnyServiceKey])] = []
  }

  /// Resets `scope` among the nodes this container owns, then in its live children (from
  /// every instance the child sees, the parent's too, which its copies may be built with).
  private func resetHere(_ scope: Scope, fromParent: Bool, into reset: inout Reset) {
    let visible = currentTable().orderedNodes
    // Reverse edges among the visible nodes; the closure of the scope's own nodes under them
    // is what was (or may be) built with an instance of the scope.
    var dependents: [ObjectIdentifier: [AnyNode]] = [:]
    for node in visible {
      for key in node.knownDependencies {
        guard let dependency = node.owner.lookup(dependency: key) else { continue }
        dependents[ObjectIdentifier(dependency), default: []].append(node)
      }
    }
    var seen: Set<ObjectIdentifier> = []
    var queue = visible.filter { $0.scope == scope && (fromParent || $0.owner === self) }
    for node in queue { seen.insert(ObjectIdentifier(node)) }
    // What this container's reset observers hear: what it dropped, and what it sees of an
    // ancestor's that the reset may have dropped there.
    var observed: [AnyServiceKey] = []
    while let node = queue.popLast() {
      // Only this container's own nodes: an ancestor's instances are the ancestor's.
      if node.owner === self {
        let (dropped, value) = node.reset(barring: reset.barrier)
        reset.barred.append(node)
        if let value { reset.values.append(value) }
        if dropped {
          reset.dropped.append(node.key.description)
          observed.append(node.key)
          tellResetStep(node.key.description)
        }
      } else {
        observed.append(node.key)
      }
      for dependent in dependents[ObjectIdentifier(node)] ?? []
      where seen.insert(ObjectIdentifier(dependent)).inserted {
        queue.append(dependent)
      }
    }
    if !observed.isEmpty { reset.notices.append((self, observed)) }
    let children = registry.withLock { $0.publishedChildren.compactMap(\.container) }
    for child in children { child.resetHere(scope, fromParent: true, into: &reset) }
  }

  /// Tells `observer` the name of each service a reset drops, as it does: for tests that
  /// resolve in the middle of a reset. `nil` stops telling.
  func onResetStep(_ observer: (@Sendable (String) -> Void)?) {
    resetStepObserver.withLock { $0 = observer }
  }

  private func tellResetStep(_ service: String) {
    if let observer = resetStepObserver.withLock({ $0 }) { observer(service) }
  }
}
