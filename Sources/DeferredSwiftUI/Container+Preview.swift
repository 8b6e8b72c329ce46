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
  /// A registration that fails stops the preview with the error's message: a preview has
  /// nowhere else to show it.
  ///
  /// - Parameter register: Registers the preview's services, typically doubles.
  /// - Returns: The launched container.
  @MainActor
  public static func preview(_ register: (Container) throws -> Void) -> Container {
    let container = Container()
    do {
      try register(container)
      try container.launch()
      try container.firstFrameDrawn()
    } catch {
      preconditionFailure("The preview's container could not launch: \(error)")
    }
    container.appIsIdle()
    return container
  }
}
