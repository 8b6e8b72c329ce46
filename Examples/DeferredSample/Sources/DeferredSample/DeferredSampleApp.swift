import DeferredSwiftUI
import SampleApp
import SwiftUI

#if canImport(UIKit)
  import UIKit
#endif

/// The sample app: the container in the environment of every view.
@main
struct DeferredSampleApp: App {
  #if canImport(UIKit)
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate
  #else
    init() {
      try? AppServices.container.launch()
    }
  #endif

  var body: some Scene {
    WindowGroup {
      RootView().deferredContainer(AppServices.container)
    }
  }
}
