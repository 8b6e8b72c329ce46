public import Deferred
import Dispatch

#if canImport(Combine)
  public import Combine
#endif

/// An observable value that waits for a service of a container without building it: waiting,
/// then ready with the service, or failed.
///
/// A view that needs a deferred service must not build it before its turn: resolving it from
/// `body` builds it on the main thread before the first frame, the opposite of deferring it. A
/// loader waits instead (``Deferred/Container/whenReady(_:name:on:_:)``): the service is
/// delivered once the launch, or anything else, has built it.
///
/// ```swift
/// let loader = ServiceLoader(SyncService.self, in: container)
/// let sync = try await loader.value()  // once the launch has built it; builds nothing
/// ```
///
/// ``DeferredView`` shows a placeholder until its loader is ready. On Apple platforms a loader
/// is an `ObservableObject`, to hold in `@StateObject` where a view needs the state itself.
///
/// - Important: With the default ``Policy/waitForTurn``, a loader of a service that nothing
///   builds (an `onDemand` service nobody resolves, or a launch that never reaches its stage)
///   waits for as long as the container lives. Use ``Policy/buildNow`` for those.
@MainActor
public final class ServiceLoader<Value: Sendable> {
  /// Where a loader is: waiting for the service, ready with it, or failed.
  public enum State {
    /// The service is not built yet, or not delivered yet.
    case waiting
    /// The service is built.
    case ready(Value)
    /// The service cannot be had: it is not registered, or (with ``Policy/buildNow``) its
    /// build failed.
    case failed(DeferredError)
  }

  /// How a loader gets its service.
  public enum Policy: Sendable, Hashable {
    /// Waits for the service's turn: it is delivered once something builds it (the launch, in
    /// its stage; the main-thread lane, for a main-actor service). Nothing is built for the
    /// loader. A build that fails is waited past, until a later build succeeds.
    case waitForTurn
    /// Builds the service now if nothing has, without blocking the main thread: on a Dispatch
    /// queue while the loader waits, a main-actor service on the main actor. For `onDemand`
    /// services.
    case buildNow
  }

  #if canImport(Combine)
    /// Where the loader is; the view updates as it changes.
    @Published public private(set) var state: State = .waiting
  #else
    /// Where the loader is.
    public private(set) var state: State = .waiting
  #endif

  /// The container the service comes from.
  public let container: Container
  /// The registration's name, if it has one.
  public let name: String?
  /// How the loader gets its service.
  public let policy: Policy

  private var started = false
  private var waiters: [Int: CheckedContinuation<Result<Value, DeferredError>?, Never>] = [:]
  private var nextWaiter = 0

  /// Makes a loader; it starts waiting on ``start()`` or ``value()``.
  ///
  /// - Parameters:
  ///   - type: The service's type.
  ///   - name: The registration's name, if it has one.
  ///   - container: The container the service comes from.
  ///   - policy: How to get the service: ``Policy/waitForTurn`` by default.
  public init(
    _ type: Value.Type = Value.self, name: String? = nil, in container: Container,
    policy: Policy = .waitForTurn
  ) {
    self.container = container
    self.name = name
    self.policy = policy
  }

  /// The service, once the loader is ready; `nil` before, or if it failed.
  public var service: Value? {
    if case .ready(let value) = state { return value }
    return nil
  }

  /// Starts waiting for the service; calling it again does nothing.
  public func start() {
    guard !started else { return }
    started = true
    switch policy {
    case .waitForTurn:
      do {
        try container.whenReady(Value.self, name: name, on: .global()) { [weak self] value in
          Task { @MainActor in self?.finish(.success(value)) }
        }
      } catch {
        finish(.failure(error))
      }
    case .buildNow:
      let (container, name) = (container, name)
      Task { [weak self] in
        do throws(DeferredError) {
          let value = try await container.awaitService(Value.self, name: name)
          self?.finish(.success(value))
        } catch {
          self?.finish(.failure(error))
        }
      }
    }
  }

  /// Starts the loader if it has not started, and suspends until it is ready or has failed.
  ///
  /// - Returns: The service.
  /// - Throws: The ``Deferred/DeferredError`` the loader failed with; `CancellationError` if the
  ///   calling task is cancelled while it waits (the loader goes on waiting).
  public func value() async throws -> Value {
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

  private func finish(_ result: Result<Value, DeferredError>) {
    guard case .waiting = state else { return }
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

#if canImport(Combine)
  extension ServiceLoader: ObservableObject {}
#endif
