extension Container {
  /// Calls `body` after each reset (``reset(_:)``) that drops something this container hands
  /// out, so that what holds a service outside it can ask for the new generation.
  ///
  /// ```swift
  /// let observation = container.onReset { reset in
  ///   if reset.dropped(UserSession.self) { reload() }
  /// }
  /// container.reset(.userSession)  // calls reload(), on this thread
  /// ```
  ///
  /// `body` runs on the resetting thread, under no lock: it may resolve. A reset in a parent
  /// reaches a child's observers too when the child sees what was dropped.
  ///
  /// - Parameter body: What to do after a reset.
  /// - Returns: The observation: `body` is called until it is cancelled or released.
  public func onReset(_ body: @escaping @Sendable (ScopeReset) -> Void) -> ResetObservation {
    ResetObservation(resetObservers, body)
  }

  /// Tells this container's observers what a reset dropped here.
  func notifyReset(_ scope: Scope, keys: [AnyServiceKey]) {
    guard !keys.isEmpty else { return }
    let bodies = resetObservers.state.withLock { Array($0.bodies.values) }
    guard !bodies.isEmpty else { return }
    let reset = ScopeReset(scope: scope, keys: Set(keys))
    for body in bodies { body(reset) }
  }
}

/// What a reset of a named scope dropped in one container, as its ``Container/onReset(_:)``
/// observers see it.
public struct ScopeReset: Sendable {
  /// The scope that was reset.
  public let scope: Scope
  let keys: Set<AnyServiceKey>

  /// The services dropped, by name, sorted: the scope's own, and those built with one of them
  /// (an ancestor's may be listed though the reset was not the ancestor's).
  public var services: [String] { keys.map(\.description).sorted() }

  /// Whether the reset dropped the service registered for `type` and `name`.
  ///
  /// - Parameters:
  ///   - type: The service's type.
  ///   - name: The registration's name, if it has one.
  /// - Returns: Whether a value handed out before the reset is of an old generation.
  public func dropped<Value: Sendable>(_ type: Value.Type, name: String? = nil) -> Bool {
    keys.contains(AnyServiceKey(Value.self, name: name))
  }
}

/// An observation made by ``Container/onReset(_:)``: its body is called until ``cancel()`` or
/// until the observation is released.
public final class ResetObservation: Sendable {
  private let observers: ResetObservers
  private let id: Int

  fileprivate init(_ observers: ResetObservers, _ body: @escaping @Sendable (ScopeReset) -> Void) {
    self.observers = observers
    id = observers.state.withLock { state in
      state.next += 1
      state.bodies[state.next] = body
      return state.next
    }
  }

  /// Stops calling the body; a reset under way on another thread may still call it once.
  public func cancel() {
    let id = id
    // Released after the lock: the body's captures may run a deinit.
    let removed = observers.state.withLock { $0.bodies.removeValue(forKey: id) }
    _ = removed
  }

  deinit { cancel() }
}

/// A container's reset observers, by the id of their observation.
final class ResetObservers: Sendable {
  struct State {
    var next = 0
    var bodies: [Int: @Sendable (ScopeReset) -> Void] = [:]
  }

  let state = Locked(State())
}
