#if canImport(SwiftUI)
  public import Deferred
  public import SwiftUI

  /// Where the environment keeps the container.
  private struct ContainerKey: EnvironmentKey {
    static let defaultValue: Container? = nil
  }

  extension EnvironmentValues {
    /// The app's container, for the views below that need services (``DeferredView``);
    /// `nil` unless a view above sets it with `deferredContainer(_:)`.
    public var deferredContainer: Container? {
      get { self[ContainerKey.self] }
      set { self[ContainerKey.self] = newValue }
    }
  }

  extension View {
    /// Puts `container` in the environment of this view and the views below it: the container
    /// itself, not a service, so nothing is built by putting it there.
    ///
    /// ```swift
    /// WindowGroup {
    ///   ContentView().deferredContainer(AppDelegate.container)
    /// }
    /// ```
    ///
    /// - Parameter container: The app's container, or a preview's (`preview(_:)`).
    /// - Returns: The view with the container in its environment.
    public func deferredContainer(_ container: Container) -> some View {
      environment(\.deferredContainer, container)
    }
  }
#endif
