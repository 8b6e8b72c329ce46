import Dispatch

/// One build of one singleton: who runs it, and its outcome once known. Other threads that need
/// the service while it is being built wait on the latch.
///
/// The Dispatch group they block on is made only when the first of them arrives: most builds
/// have no waiter, and pay for none.
final class BuildLatch: Sendable {
  enum Outcome: Sendable {
    case built
    case failed(DeferredError)
  }

  private struct State {
    var outcome: Outcome?
    var group: DispatchGroup?
  }

  let owner: BuildContext
  let attempt: Int
  private let state = Locked(State())

  init(owner: BuildContext, attempt: Int) {
    self.owner = owner
    self.attempt = attempt
  }

  func finish(_ result: Outcome) {
    let group = state.withLock { state in
      state.outcome = result
      return state.group
    }
    group?.leave()
  }

  /// The group to wait on, made by the first waiter; `nil` once the build has finished.
  private func waitGroup() -> DispatchGroup? {
    state.withLock { state in
      guard state.outcome == nil else { return nil }
      if let group = state.group { return group }
      let group = DispatchGroup()
      group.enter()
      state.group = group
      return group
    }
  }

  /// Blocks until the build finishes, or until `limit` has passed (then `nil`).
  func wait(limit: Duration?) -> Outcome? {
    if let group = waitGroup() {
      if let limit {
        let deadline = DispatchTime.now() + .nanoseconds(Int(limit.nanoseconds))
        if group.wait(timeout: deadline) == .timedOut { return nil }
      } else {
        group.wait()
      }
    }
    return state.withLock { $0.outcome }
  }

  /// Suspends until the build finishes, blocking no thread.
  func outcome() async -> Outcome {
    if let group = waitGroup() {
      await withCheckedContinuation { continuation in
        group.notify(queue: .global()) { continuation.resume() }
      }
    }
    return state.withLock { $0.outcome } ?? .built
  }
}
