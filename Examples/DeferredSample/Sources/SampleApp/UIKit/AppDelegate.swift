#if canImport(UIKit)
  import Deferred
  import UIKit

  /// Launches the container as the app finishes launching: only the critical services are
  /// built before the first frame.
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
      do {
        try AppServices.container.launch()
      } catch {
        preconditionFailure("The launch failed: \(error)")
      }
      return true
    }

    /// The app has nothing left to do: the idle services may be built now.
    ///
    /// - Parameter application: The app.
    public func applicationDidBecomeActive(_ application: UIApplication) {
      AppServices.container.appIsIdle()
    }
  }
#endif
