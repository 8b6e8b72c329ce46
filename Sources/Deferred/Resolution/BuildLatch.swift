import Dispatch

/// One build of one singleton: who runs it, and its outcome once known. Other threads that need
/// the service while it is being built wait on the latch.
///
/// A latch has no lock of its own: its outcome and group are read and written only under the
/// lock of the node it builds (``AnyNode/withState(_:)``), which every transition takes anyway. The
/// Dispatch group waiters block on is made only when the first of them arrives: most builds
/// have no waiter, and pay for none.
///
/// Safety: its mutable fields are guarded by its node's lock (Docs/Design.md, "Memory
/// safety").
final class BuildLatch: @unchecked Sendable {
  enum Outcome: Sendable {
    /// Built: published in the node's cell (`nil`), or held (the value this build made).
    case built(Held?)
    indirect case failed(DeferredError)
  }

  let owner: BuildContext
  let attempt: Int
  /// Guarded by the node's lock.
  private var outcome: Outcome?
  /// Guarded by the node's lock.
  private var group: DispatchGroup?

  init(owner: BuildContext, attempt: Int) {
    self.owner = owner
    self.attempt = attempt
  }

  /// Sets the outcome, under the node's lock; returns the group to leave once it is released.
  func finish(_ result: Outcome) -> DispatchGroup? {
    outcome = result
    return group
  }

  /// The group to wait on, made by the first waiter, under the node's lock; `nil` once the
  /// build has finished.
  private func waitGroup() -> DispatchGroup? {
    guard outcome == nil else { return nil }
    if let group { return group }
    let group = DispatchGroup()
    group.enter()
    self.group = group
    return group
  }

  /// Blocks until the build of `node` finishes, or until `limit` has passed (then `nil`).
  func wait(for node: AnyNode, limit: Duration?) -> Outcome? {
    if let group = node.withState({ _ in waitGroup() }) {
      // The builder runs at this thread's priority while it waits (Apple platforms).
      let loan = PriorityDonation.begin(to: owner.recipient)
      defer { PriorityDonation.end(loan) }
      if let limit {
        if group.wait(timeout: .after(limit)) == .timedOut { return nil }
      } else {
        group.wait()
      }
    }
    return node.withState { _ in outcome }
  }

  /// Suspends until the build of `node` finishes, blocking no thread.
  func outcome(for node: AnyNode) async -> Outcome {
    if let group = node.withState({ _ in waitGroup() }) {
      await withCheckedContinuation { continuation in
        group.notify(queue: .global()) { continuation.resume() }
      }
    }
    return node.withState { _ in outcome } ?? .built(nil)
  }
}
