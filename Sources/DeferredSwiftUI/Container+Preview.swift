public import Deferred

extension Container {
  /// Makes a container for a SwiftUI preview or a quick sketch: `register` puts in the
  /// doubles, then the container launches, reports its first frame and is told the app is
  /// idle, so that every service that is not `onDemand` gets built in its turn.
  ///
  /// ```swift
  /// #Preview {
  ///   TapeView()
  ///     .deferredContainer(.preview { container in
  ///       try container.register(Tape.self) { Tape(entries: [.sample]) }
  ///     })
  /// }
  /// ```
  ///
  /// To start from the app's own registrations and replace a few, use
  /// ``preview(registering:overrides:)``.
  ///
  /// A registration that fails stops the preview with the error's message: a preview has
  /// nowhere else to show it.
  ///
  /// - Parameter register: Registers the preview's services, typically doubles.
  /// - Returns: The launched container.
  @MainActor
  public static func preview(_ register: (Container) throws -> Void) -> Container {
    preview(registering: register, overrides: { _ in })
  }

  /// Makes a container for a SwiftUI preview from the app's own registrations, with a few of
  /// them replaced by doubles: the app's composition root runs, then `overrides`, then the
  /// container launches as the app's would (first frame, idle).
  ///
  /// ```swift
  /// #Preview {
  ///   SyncBadge()
  ///     .deferredContainer(
  ///       .preview(registering: AppServices.register) { container in
  ///         try container.register(Network.self, replacing: true) { OfflineNetwork() }
  ///       })
  /// }
  /// ```
  ///
  /// An override replaces the app's registration of the same key, so it is registered with
  /// `replacing: true`; what depends on it is built with the double. A registration that fails
  /// (an override without `replacing: true` is one) stops the preview with the error's message.
  ///
  /// - Parameters:
  ///   - register: Registers the app's services: the function the app registers with.
  ///   - overrides: Replaces some of them, with `replacing: true`.
  /// - Returns: The launched container.
  @MainActor
  public static func preview(
    registering register: (Container) throws -> Void,
    overrides: (Container) throws -> Void
  ) -> Container {
    let container = Container()
    do {
      try register(container)
    } catch {
      preconditionFailure("The preview's registrations failed: \(error)")
    }
    do {
      try overrides(container)
    } catch {
      preconditionFailure(
        "The preview's overrides failed: \(error). An override of one of the app's services "
          + "is registered with replacing: true.")
    }
    do {
      try container.launch()
      try container.firstFrameDrawn()
    } catch {
      preconditionFailure("The preview's container could not launch: \(error)")
    }
    container.appIsIdle()
    return container
  }
}
