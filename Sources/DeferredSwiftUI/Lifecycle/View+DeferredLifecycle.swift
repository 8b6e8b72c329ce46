#if canImport(SwiftUI)
  public import Deferred
  import Dispatch
  public import SwiftUI

  extension View {
    /// Wires the container to the app's lifecycle, the way scene-based apps work: puts it in
    /// the environment, tells it when the first frame is up, when the app is idle, and when its
    /// deferred builds should pause and resume.
    ///
    /// ```swift
    /// @main
    /// struct MyApp: App {
    ///   init() { try! AppServices.container.launch() }
    ///
    ///   var body: some Scene {
    ///     WindowGroup {
    ///       RootView().deferredLifecycle(AppServices.container)
    ///     }
    ///   }
    /// }
    /// ```
    ///
    /// An app that uses scenes (every SwiftUI app, and a UIKit app with a scene manifest) is
    /// never sent `applicationDidBecomeActive(_:)`; its scenes have phases instead. The modifier
    /// reads the scene's `scenePhase` and, for the whole app (every window that has it):
    ///
    /// - calls `firstFrameDrawn()` once, in the main queue's turn after the
    ///   first window's view appears (its first frame is committed by then);
    /// - calls `appIsIdle()` once, when a scene is active after that first
    ///   frame;
    /// - calls `pause()` when every scene is in the background, and
    ///   `resume()` when one comes back.
    ///
    /// Launch the container before the first frame (in the `App`'s `init`, or the app
    /// delegate's `application(_:didFinishLaunchingWithOptions:)`): the modifier does not.
    ///
    /// - Parameter container: The app's container.
    /// - Returns: The view, wired.
    public func deferredLifecycle(_ container: Container) -> some View {
      modifier(LifecycleModifier(container: container))
    }
  }

  /// Feeds one scene's phase and first frame to its container's ``LifecycleCoordinator``.
  struct LifecycleModifier: ViewModifier {
    let container: Container
    @Environment(\.scenePhase) private var scenePhase
    @State private var scene = LifecycleCoordinator.newScene()

    func body(content: Content) -> some View {
      content
        .deferredContainer(container)
        .onAppear {
          let coordinator = LifecycleCoordinator.of(container)
          coordinator.scene(scene, is: LifecycleMachine.Phase(scenePhase))
          // The frame this view is in is committed at the end of this turn of the main queue.
          DispatchQueue.main.async { coordinator.firstFrameCommitted() }
        }
        .task(id: scenePhase) {
          LifecycleCoordinator.of(container).scene(scene, is: LifecycleMachine.Phase(scenePhase))
        }
        .onDisappear {
          LifecycleCoordinator.of(container).sceneRemoved(scene)
        }
    }
  }

  extension LifecycleMachine.Phase {
    /// SwiftUI's phase of a scene.
    init(_ phase: ScenePhase) {
      switch phase {
      case .active: self = .active
      case .background: self = .background
      default: self = .inactive
      }
    }
  }
#endif
