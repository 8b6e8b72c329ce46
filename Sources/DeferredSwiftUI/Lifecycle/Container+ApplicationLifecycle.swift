import Dispatch
import Foundation

#if canImport(UIKit)
  public import Deferred
  import UIKit
#elseif canImport(AppKit)
  public import Deferred
  import AppKit
#else
  import Deferred
#endif

extension Container {
  #if canImport(UIKit) || canImport(AppKit)
    /// Wires the container to the app's lifecycle from UIKit or AppKit code, in one call: the
    /// first frame after this turn of the main queue, idle once the app is active, pause and
    /// resume with the background. For SwiftUI, `deferredLifecycle(_:)`
    /// does the same from the scene's phase.
    ///
    /// ```swift
    /// func scene(
    ///   _ scene: UIScene, willConnectTo session: UISceneSession,
    ///   options connectionOptions: UIScene.ConnectionOptions
    /// ) {
    ///   // ... the window and its root view controller, made key and visible ...
    ///   AppServices.container.followApplicationLifecycle()
    /// }
    /// ```
    ///
    /// Call it once the first screen is in its window (a scene delegate's
    /// `scene(_:willConnectTo:options:)`, or `application(_:didFinishLaunchingWithOptions:)`
    /// in an app without scenes), after `launch(_:)`. It follows the
    /// application's notifications, which UIKit posts whether or not the app uses scenes
    /// (`applicationDidBecomeActive(_:)` is not called in an app that does):
    /// `didBecomeActiveNotification` makes the app idle after its first frame,
    /// `didEnterBackgroundNotification` pauses the deferred builds that have not started and
    /// `willEnterForegroundNotification` resumes them. On macOS, `NSApplication`'s
    /// `didBecomeActiveNotification` makes the app idle. Calling it again does nothing.
    @MainActor
    public func followApplicationLifecycle() {
      #if canImport(UIKit)
        let names = LifecycleNotifications(
          active: UIApplication.didBecomeActiveNotification,
          inactive: UIApplication.willResignActiveNotification,
          background: UIApplication.didEnterBackgroundNotification,
          foreground: UIApplication.willEnterForegroundNotification)
        let phase: LifecycleMachine.Phase =
          switch UIApplication.shared.applicationState {
          case .active: .active
          case .background: .background
          default: .inactive
          }
      #else
        let names = LifecycleNotifications(
          active: NSApplication.didBecomeActiveNotification,
          inactive: NSApplication.didResignActiveNotification,
          background: nil, foreground: nil)
        let phase: LifecycleMachine.Phase = NSApplication.shared.isActive ? .active : .inactive
      #endif
      LifecycleCoordinator.of(self).follow(names, in: .default, from: phase)
    }
  #endif
}

/// The notifications an application posts as its state changes; `nil` where the platform has
/// none.
struct LifecycleNotifications: Sendable {
  var active: Notification.Name
  var inactive: Notification.Name
  var background: Notification.Name?
  var foreground: Notification.Name?
}

extension LifecycleCoordinator {
  /// The scene number the application's own notifications stand for.
  static let application = 0

  /// Follows the application's notifications in `center`, from its state `phase` now, and
  /// reports the first frame in the next turn of the main queue; once.
  func follow(
    _ names: LifecycleNotifications, in center: NotificationCenter,
    from phase: LifecycleMachine.Phase
  ) {
    guard observers.isEmpty else { return }
    let phases: [(Notification.Name?, LifecycleMachine.Phase)] = [
      (names.active, .active), (names.inactive, .inactive),
      (names.background, .background), (names.foreground, .inactive),
    ]
    for case (let name?, let phase) in phases {
      observers.append(
        // Delivered on the posting thread (the application posts on the main thread): a
        // queue would make the poster wait for it.
        center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in
          if Thread.isMainThread {
            MainActor.assumeIsolated { self?.scene(Self.application, is: phase) }
          } else {
            Task { @MainActor in self?.scene(Self.application, is: phase) }
          }
        })
    }
    scene(Self.application, is: phase)
    DispatchQueue.main.async { [weak self] in self?.firstFrameCommitted() }
  }
}
