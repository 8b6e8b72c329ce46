import DeferredSwiftUI
import SwiftUI

/// The sample app: the container launched before the first frame, then wired to the scenes'
/// lifecycle (first frame, idle, background) and put in the environment of every view.
public struct SampleApplication: App {
  /// Launches the container: only the critical services are built before the first frame.
  public init() {
    AppServices.launch()
  }

  /// One window with the app's first screen.
  public var body: some Scene {
    WindowGroup {
      RootView().deferredLifecycle(AppServices.container)
    }
  }
}
