import Deferred

/// The loader behind a `DeferredService`: a ``ServiceWait`` on the container the view's
/// environment holds now, made anew when that container changes, so that a view never shows
/// a service, or a failure, of a container it no longer has.
@MainActor
final class LoaderBinding<Value: Sendable> {
  /// The wait on the current container; `nil` without one.
  private(set) var wait: ServiceWait<Value>?
  /// Called after the current wait's state changes (not when ``follow(_:name:policy:)`` swaps
  /// the wait: the view that calls it reads the new state at once).
  var onChange: (() -> Void)?

  /// Waits on `container` from now on: keeps the wait if the container is the one it waits
  /// on, else starts a new one (or none, without a container).
  ///
  /// - Returns: Whether the wait changed.
  @discardableResult
  func follow(_ container: Container?, name: String?, policy: ServiceWait<Value>.Policy) -> Bool {
    guard let container else {
      guard wait != nil else { return false }
      wait = nil
      return true
    }
    if let wait, wait.container === container, wait.name == name, wait.policy == policy {
      return false
    }
    let made = ServiceWait<Value>(container: container, name: name, policy: policy)
    made.onChange = { [weak self] _ in self?.onChange?() }
    wait = made
    made.start()
    return true
  }

  /// The current wait's state; `nil` without a container.
  var state: ServiceWait<Value>.State? { wait?.state }
}
