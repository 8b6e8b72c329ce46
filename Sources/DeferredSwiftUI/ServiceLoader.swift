public import Deferred

#if canImport(Combine)
  public import Combine
#endif

/// An observable value that waits for a service of a container without building it: waiting,
/// then ready with the service, or failed.
///
/// A view that needs a deferred service must not build it before its turn: resolving it from
/// `body` builds it on the main thread before the first frame, the opposite of deferring it. A
/// loader waits instead (`whenReady(_:name:on:_:)`): the service is
/// delivered once the launch, or anything else, has built it.
///
/// ```swift
/// let loader = ServiceLoader(SyncService.self, in: container)
/// let sync = try await loader.value()  // once the launch has built it; builds nothing
/// ```
///
/// A loader follows the container's resets (`reset(_:)`): once a reset
/// drops its service (the signed-in user's session at logout), it goes back to waiting, then
/// to ready with the new instance, which it builds off the main thread (the service's turn in
/// the launch has passed).
///
/// `DeferredView` and `DeferredService` show a placeholder until their loader is ready. On
/// Apple platforms a loader is an `ObservableObject`, to hold in `@StateObject` where a view
/// needs the state itself; from iOS 17, ``ObservableServiceLoader`` is the same loader with
/// `@Observable`.
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
  public var container: Container { wait.container }
  /// The registration's name, if it has one.
  public var name: String? { wait.name }
  /// How the loader gets its service.
  public var policy: Policy { wait.policy }

  private let wait: ServiceWait<Value>

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
    wait = ServiceWait(container: container, name: name, policy: policy)
    wait.onChange = { [weak self] state in self?.state = state }
  }

  /// The service, once the loader is ready; `nil` before, or if it failed.
  public var service: Value? { wait.service }

  /// Starts waiting for the service, and following the resets that drop it; calling it again
  /// does nothing.
  public func start() { wait.start() }

  /// Starts the loader if it has not started, and suspends until it is ready or has failed.
  ///
  /// - Returns: The service.
  /// - Throws: The `DeferredError` the loader failed with; `CancellationError` if the
  ///   calling task is cancelled while it waits (the loader goes on waiting).
  public func value() async throws -> Value { try await wait.value() }
}

#if canImport(Combine)
  extension ServiceLoader: ObservableObject {}
#endif
