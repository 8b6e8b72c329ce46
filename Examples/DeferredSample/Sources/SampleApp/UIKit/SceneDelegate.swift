#if canImport(UIKit)
  import Deferred
  import DeferredSwiftUI
  import SwiftUI
  import UIKit

  /// For a UIKit app with a scene manifest: the first screen in a window, then the container
  /// wired to the app's lifecycle in one call. UIKit calls no `applicationDidBecomeActive(_:)`
  /// in an app that uses scenes; the library follows the application's notifications, which
  /// are posted either way.
  public final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    /// The scene's window.
    public var window: UIWindow?

    /// Shows the first screen, and wires the container: first frame, idle, background.
    ///
    /// - Parameters:
    ///   - scene: The scene.
    ///   - session: Its session.
    ///   - connectionOptions: Why it connected.
    public func scene(
      _ scene: UIScene, willConnectTo session: UISceneSession,
      options connectionOptions: UIScene.ConnectionOptions
    ) {
      guard let scene = scene as? UIWindowScene else { return }
      let window = UIWindow(windowScene: scene)
      window.rootViewController = UIHostingController(
        rootView: RootView().deferredContainer(AppServices.container))
      window.makeKeyAndVisible()
      self.window = window
      AppServices.container.followApplicationLifecycle()
    }
  }
#endif
