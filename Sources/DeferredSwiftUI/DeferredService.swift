#if canImport(SwiftUI)
  public import Deferred
  public import SwiftUI

  /// A service of the container in the environment, for a view: `nil` until it is built, in
  /// its turn, then the service; the view updates when it arrives.
  ///
  /// The container comes from the environment (`deferredContainer(_:)` or
  /// `deferredLifecycle(_:)` above), so neither the view nor its parent
  /// passes it in. Nothing is built for the view: it waits as a ``ServiceLoader`` does (with
  /// ``ServiceLoader/Policy/buildNow``, it builds an `onDemand` service off the main thread).
  ///
  /// ```swift
  /// struct SyncBadge: View {
  ///   @DeferredService(SyncService.self) private var sync
  ///
  ///   var body: some View {
  ///     if let sync { Text("\(sync.pending) to send") } else { ProgressView() }
  ///   }
  /// }
  /// ```
  ///
  /// It follows the container: when the environment's container changes (a preview's, a
  /// signed-in user's child container), the view waits on the new one and never shows the old
  /// one's service. It follows resets: once `reset(_:)` drops the service,
  /// the view waits again and shows the new instance. `$name` is the ``Phase``, with the
  /// failure if the service cannot be had.
  @MainActor
  @propertyWrapper
  public struct DeferredService<Value: Sendable>: @preconcurrency DynamicProperty {
    /// Where a service is, for a view.
    public enum Phase {
      /// Not built yet, or not delivered yet.
      case waiting
      /// Built.
      case ready(Value)
      /// It cannot be had: no container in the environment, no registration, or (with
      /// ``ServiceLoader/Policy/buildNow``) a build that failed.
      case failed(any Error)
    }

    @Environment(\.deferredContainer) private var container
    @StateObject private var binding = ObservedBinding<Value>()
    private let name: String?
    private let policy: ServiceLoader<Value>.Policy

    /// Waits for the service registered for `type` and `name` in the environment's container.
    ///
    /// - Parameters:
    ///   - type: The service's type.
    ///   - name: The registration's name, if it has one.
    ///   - policy: How to get the service: wait for its turn (the default), or build it now,
    ///     off the main thread, for an `onDemand` service.
    public init(
      _ type: Value.Type = Value.self, name: String? = nil,
      policy: ServiceLoader<Value>.Policy = .waitForTurn
    ) {
      self.name = name
      self.policy = policy
    }

    /// The service once built; `nil` before, or if it cannot be had.
    public var wrappedValue: Value? {
      if case .ready(let value) = projectedValue { return value }
      return nil
    }

    /// Where the service is: waiting, ready, or failed with the reason.
    public var projectedValue: Phase {
      switch binding.binding.state {
      case nil: .failed(NoContainerError(service: "\(Value.self)"))
      case .waiting: .waiting
      case .ready(let value): .ready(value)
      case .failed(let error): .failed(error)
      }
    }

    /// Follows the environment's container: SwiftUI calls it before each `body`.
    public func update() {
      binding.binding.follow(container, name: name, policy: policy)
    }
  }

  /// A ``LoaderBinding`` as an `ObservableObject`, for `@StateObject`, which keeps it for the
  /// view's lifetime from iOS 16.
  @MainActor
  final class ObservedBinding<Value: Sendable>: ObservableObject {
    let binding = LoaderBinding<Value>()

    init() {
      binding.onChange = { [weak self] in self?.objectWillChange.send() }
    }
  }

  /// The error a view shows when no container is in its environment.
  struct NoContainerError: Error, CustomStringConvertible {
    /// The service the view waited for.
    let service: String

    var description: String {
      "No container in the environment for the view that waits for \(service): call "
        + ".deferredContainer(container) or .deferredLifecycle(container) on a view above it."
    }
  }
#endif
