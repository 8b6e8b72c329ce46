#if canImport(SwiftUI)
  import Deferred
  public import SwiftUI

  /// A view that shows a placeholder until a service is built, and its content after: it waits
  /// for the service, and never builds it before its turn.
  ///
  /// Reading a deferred service in `body` (`container.require(SyncService.self)`) builds it on
  /// the main thread, before the first frame if the view is on the first screen: the opposite
  /// of deferring it. `DeferredView` waits instead, through a ``DeferredService``: the service is
  /// shown once the launch has built it in its stage, on a background queue, or on the
  /// main-thread lane for a main-actor service, one build a turn of the main queue.
  ///
  /// ```swift
  /// DeferredView(TapeModel.self) { tape in
  ///   TapeList(model: tape)
  /// } placeholder: {
  ///   ProgressView()
  /// }
  /// ```
  ///
  /// The container comes from the environment (`deferredContainer(_:)`). With
  /// no container there, no registration of the service, or (with ``ServiceLoader/Policy/buildNow``)
  /// a build that failed, the view shows the failure. The view follows its container and the
  /// resets that drop its service, as ``DeferredService`` does: it never shows a service of a
  /// container it no longer has, nor one a reset dropped.
  public struct DeferredView<Service: Sendable, Content: View, Placeholder: View, Failure: View>:
    View
  {
    @DeferredService<Service> private var service
    private let content: (Service) -> Content
    private let placeholder: () -> Placeholder
    private let failure: (any Error) -> Failure

    /// Makes a view that shows `placeholder` until the service is built, `content` after, and
    /// `failure` if it cannot be had.
    ///
    /// - Parameters:
    ///   - type: The service's type.
    ///   - name: The registration's name, if it has one.
    ///   - policy: How to get the service: wait for its turn (the default), or build it now,
    ///     off the main thread, for an `onDemand` service.
    ///   - content: The view of the built service.
    ///   - placeholder: What to show while waiting.
    ///   - failure: What to show if the service cannot be had.
    public init(
      _ type: Service.Type, name: String? = nil,
      policy: ServiceLoader<Service>.Policy = .waitForTurn,
      @ViewBuilder content: @escaping (Service) -> Content,
      @ViewBuilder placeholder: @escaping () -> Placeholder,
      @ViewBuilder failure: @escaping (any Error) -> Failure
    ) {
      _service = DeferredService(type, name: name, policy: policy)
      self.content = content
      self.placeholder = placeholder
      self.failure = failure
    }

    /// The view's content: the placeholder, the service's content or the failure.
    public var body: some View {
      switch $service {
      case .waiting: placeholder()
      case .ready(let service): content(service)
      case .failed(let error): failure(error)
      }
    }
  }

  extension DeferredView where Failure == Text {
    /// Makes a view that shows `placeholder` until the service is built and `content` after;
    /// if the service cannot be had, the error's message.
    ///
    /// - Parameters:
    ///   - type: The service's type.
    ///   - name: The registration's name, if it has one.
    ///   - policy: How to get the service: wait for its turn (the default), or build it now.
    ///   - content: The view of the built service.
    ///   - placeholder: What to show while waiting.
    public init(
      _ type: Service.Type, name: String? = nil,
      policy: ServiceLoader<Service>.Policy = .waitForTurn,
      @ViewBuilder content: @escaping (Service) -> Content,
      @ViewBuilder placeholder: @escaping () -> Placeholder
    ) {
      self.init(
        type, name: name, policy: policy, content: content, placeholder: placeholder,
        failure: { Text(verbatim: String(describing: $0)) })
    }
  }
#endif
