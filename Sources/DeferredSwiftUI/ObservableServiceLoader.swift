public import Deferred
public import Observation

/// A ``ServiceLoader`` for iOS 17 and later that is `Observable`, as an `@Observable` class is: a
/// view that reads ``state`` updates when it changes, and an `@Observable` model can hold one
/// like any other property.
///
/// It waits for a service of a container without building it, as ``ServiceLoader`` does, and
/// follows the resets that drop the service in the same way. Hold it in `@State`:
///
/// ```swift
/// struct SyncStatus: View {
///   @State private var sync = ObservableServiceLoader(SyncService.self, in: AppServices.container)
///
///   var body: some View {
///     Text(sync.service == nil ? "Syncing soon" : "Syncing")
///       .task { sync.start() }
///   }
/// }
/// ```
///
/// In a view, `DeferredService` does this with the container of the environment, from
/// iOS 16.
///
/// The class states its `Observable` conformance with Observation's registrar, as the
/// `@Observable` macro would write it: the library then needs no macro plugin to compile.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
@MainActor
public final class ObservableServiceLoader<Value: Sendable>: Observable {
  /// Where a loader is: waiting, ready with the service, or failed.
  public typealias State = ServiceLoader<Value>.State
  /// How a loader gets its service.
  public typealias Policy = ServiceLoader<Value>.Policy

  /// Where the loader is; a view that reads it updates as it changes.
  public private(set) var state: State {
    get {
      registrar.access(self, keyPath: \.state)
      return storedState
    }
    set {
      registrar.withMutation(of: self, keyPath: \.state) { storedState = newValue }
    }
  }

  private var storedState: State = .waiting
  private let registrar = ObservationRegistrar()
  private let wait: ServiceWait<Value>

  /// Makes a loader; it starts waiting on ``start()`` or ``value()``.
  ///
  /// - Parameters:
  ///   - type: The service's type.
  ///   - name: The registration's name, if it has one.
  ///   - container: The container the service comes from.
  ///   - policy: How to get the service: wait for its turn by default.
  public init(
    _ type: Value.Type = Value.self, name: String? = nil, in container: Container,
    policy: Policy = .waitForTurn
  ) {
    wait = ServiceWait(container: container, name: name, policy: policy)
    wait.onChange = { [weak self] state in self?.state = state }
  }

  /// The container the service comes from.
  public var container: Container { wait.container }
  /// The registration's name, if it has one.
  public var name: String? { wait.name }
  /// How the loader gets its service.
  public var policy: Policy { wait.policy }

  /// The service, once the loader is ready; `nil` before, or if it failed.
  public var service: Value? {
    if case .ready(let value) = state { return value }
    return nil
  }

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
