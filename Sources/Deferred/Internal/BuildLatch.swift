import Dispatch
import Synchronization

/// One build of one singleton: who runs it, and its outcome once known. Other threads that need
/// the service while it is being built wait on the latch.
final class BuildLatch: Sendable {
  enum Outcome: Sendable {
    case built
    case failed(DeferredError)
  }

  let owner: BuildContext
  let attempt: Int
  private let group = DispatchGroup()
  private let outcome = Locked<Outcome?>(nil)

  init(owner: BuildContext, attempt: Int) {
    self.owner = owner
    self.attempt = attempt
    group.enter()
  }

  func finish(_ result: Outcome) {
    outcome.withLock { $0 = result }
    group.leave()
  }

  /// Blocks until the build finishes, or until `limit` has passed (then `nil`).
  func wait(limit: Duration?) -> Outcome? {
    if let limit {
      let (seconds, attoseconds) = limit.components
      let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
      if group.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .timedOut { return nil }
    } else {
      group.wait()
    }
    return outcome.withLock { $0 }
  }

  /// Suspends until the build finishes, blocking no thread.
  func outcome() async -> Outcome {
    await withCheckedContinuation { continuation in
      group.notify(queue: .global()) {
        continuation.resume(returning: self.outcome.withLock { $0 } ?? .built)
      }
    }
  }
}
