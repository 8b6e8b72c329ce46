import Deferred
import Dispatch

/// What every loader does, whichever way it is observed: waits for a service of a container
/// without building it (or builds it off the main thread, with ``ServiceLoader/Policy/buildNow``),
/// hands it to the callers of ``value()``, and follows the resets that drop it.
///
/// ``ServiceLoader`` (an `ObservableObject`), ``ObservableServiceLoader`` (`@Observable`) and
/// `DeferredService` each hold one and mirror ``state`` through ``onChange``.
@MainActor
final class ServiceWait<Value: Sendable> {
  typealias State = ServiceLoader<Value>.State
  typealias Policy = ServiceLoader<Value>.Policy

  let container: Container
  let name: String?
  let policy: Policy

  /// Where the wait is.
  private(set) var state: State = .waiting {
    didSet { onChange?(state) }
  }
  /// Called after ``state`` changes.
  var onChange: ((State) -> Void)?

  private var started = false
  /// Bumped by each reset that drops the service: a delivery of an older generation is
  /// ignored.
  private var generation = 0
  private var resetObservation: ResetObservation?
  private var waiters: [Int: CheckedContinuation<Result<Value, DeferredError>?, Never>] = [:]
  private var nextWaiter = 0

  init(container: Container, name: String?, policy: Policy) {
    self.container = container
    self.name = name
    self.policy = policy
  }

  /// The service, once ready.
  var service: Value? {
    if case .ready(let value) = state { return value }
    return nil
  }

  /// Starts waiting, and following resets; calling it again does nothing.
  func start() {
    guard !started else { return }
    started = true
    let name = name
    resetObservation = container.onReset { [weak self] reset in
      guard reset.dropped(Value.self, name: name) else { return }
      Task { @MainActor in self?.serviceWasDropped() }
    }
    load(policy)
  }

  /// Starts a load of the current generation: by waiting for the service's turn, or by
  /// building it now.
  private func load(_ policy: Policy) {
    let (container, name, generation) = (container, name, generation)
    switch policy {
    case .waitForTurn:
      do {
        try container.whenReady(Value.self, name: name, on: .global()) { [weak self] value in
          Task { @MainActor in self?.finish(.success(value), generation: generation) }
        }
      } catch {
        finish(.failure(error), generation: generation)
      }
    case .buildNow:
      Task { [weak self] in
        do throws(DeferredError) {
          let value = try await container.awaitService(Value.self, name: name)
          self?.finish(.success(value), generation: generation)
        } catch {
          self?.finish(.failure(error), generation: generation)
        }
      }
    }
  }

  /// A reset dropped the service: the value held is of an old generation. The wait goes back
  /// to waiting and builds the next one off the main thread: the service's turn in the launch
  /// has passed (a reset schedules nothing), and the container would build it for the next
  /// caller anyway.
  private func serviceWasDropped() {
    generation += 1
    if case .waiting = state {} else { state = .waiting }
    load(.buildNow)
  }

  /// Suspends until the service is ready or has failed.
  func value() async throws -> Value {
    start()
    switch state {
    case .ready(let value): return value
    case .failed(let error): throw error
    case .waiting: break
    }
    let id = nextWaiter
    nextWaiter += 1
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<Value, DeferredError>?, Never>) in
        if Task.isCancelled {
          continuation.resume(returning: nil)
        } else {
          waiters[id] = continuation
        }
      }
    } onCancel: {
      Task { @MainActor [weak self] in self?.cancelWaiter(id) }
    }
    guard let result else { throw CancellationError() }
    return try result.get()
  }

  private func finish(_ result: Result<Value, DeferredError>, generation: Int) {
    guard generation == self.generation, case .waiting = state else { return }
    switch result {
    case .success(let value): state = .ready(value)
    case .failure(let error): state = .failed(error)
    }
    let waiting = waiters.values
    waiters = [:]
    for waiter in waiting { waiter.resume(returning: result) }
  }

  private func cancelWaiter(_ id: Int) {
    waiters.removeValue(forKey: id)?.resume(returning: nil)
  }
}
