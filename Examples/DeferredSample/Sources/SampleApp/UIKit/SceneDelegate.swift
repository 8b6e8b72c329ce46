#if canImport(UIKit)
  import Deferred
  import DeferredSwiftUI
  import SwiftUI
  import UIKit

  /// For a UIKit app: the first screen in a window, the first frame reported once it is
  /// committed, and the deferred builds held while the app is in the background.
  public final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    /// The scene's window.
    public var window: UIWindow?
    private let container = AppServices.container

    /// Shows the first screen.
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
        rootView: RootView().deferredContainer(container))
      window.makeKeyAndVisible()
      self.window = window
      // The first frame is committed at the end of this turn of the main run loop.
      DispatchQueue.main.async { [container] in try? container.firstFrameDrawn() }
    }

    /// Holds the deferred builds that have not started.
    ///
    /// - Parameter scene: The scene.
    public func sceneDidEnterBackground(_ scene: UIScene) { container.pause() }

    /// Lets the deferred builds go again.
    ///
    /// - Parameter scene: The scene.
    public func sceneWillEnterForeground(_ scene: UIScene) { container.resume() }
  }
#endif
