#if canImport(UIKit)
  import Deferred
  import UIKit

  /// For a UIKit app (the SwiftUI app launches in its `init`): launches the container as the
  /// app finishes launching, so that only the critical services are built before the first
  /// frame. The scene delegate does the rest.
  public final class AppDelegate: NSObject, UIApplicationDelegate {
    /// Builds the critical services.
    ///
    /// - Parameters:
    ///   - application: The app.
    ///   - launchOptions: Why the app launched.
    /// - Returns: `true`.
    public func application(
      _ application: UIApplication,
      didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
      AppServices.launch()
      return true
    }
  }
#endif
