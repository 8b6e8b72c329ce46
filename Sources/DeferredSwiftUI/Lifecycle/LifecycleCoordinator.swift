import Deferred
import Foundation

/// One container's lifecycle, fed by every scene that shows it: it runs the
/// ``LifecycleMachine`` and calls the container.
@MainActor
final class LifecycleCoordinator {
  /// The coordinator of each container that has one, by the container's identity.
  private static var coordinators: [ObjectIdentifier: LifecycleCoordinator] = [:]
  private static var scenes = 0

  /// The coordinator of `container`, made on first use: every scene of the app shares it.
  static func of(_ container: Container) -> LifecycleCoordinator {
    let id = ObjectIdentifier(container)
    if let found = coordinators[id], found.container === container { return found }
    // A container at the address of a released one gets a coordinator of its own.
    coordinators = coordinators.filter { $0.value.container != nil }
    let made = LifecycleCoordinator(container)
    coordinators[id] = made
    return made
  }

  /// A new scene's number, for ``scene(_:is:)``.
  static func newScene() -> Int {
    scenes += 1
    return scenes
  }

  private weak var container: Container?
  private var machine = LifecycleMachine()
  /// What the coordinator called, in order (for tests and for the debugger).
  private(set) var performed: [LifecycleMachine.Action] = []
  /// The notification observers of ``follow(_:in:from:)``.
  var observers: [any NSObjectProtocol] = []

  init(_ container: Container) {
    self.container = container
  }

  /// A scene appeared or changed phase.
  func scene(_ id: Int, is phase: LifecycleMachine.Phase) {
    perform(machine.scene(id, is: phase))
  }

  /// A scene is gone.
  func sceneRemoved(_ id: Int) {
    perform(machine.sceneRemoved(id))
  }

  /// A scene committed its first frame.
  func firstFrameCommitted() {
    perform(machine.firstFrameCommitted())
  }

  private func perform(_ actions: [LifecycleMachine.Action]) {
    guard let container else { return }
    for action in actions {
      performed.append(action)
      switch action {
      case .firstFrameDrawn:
        do {
          try container.firstFrameDrawn()
        } catch {
          assertionFailure(
            "The first frame is up but the container cannot start its deferred builds: "
              + "\(error). Call launch() before the first frame, in the App's init or the "
              + "app delegate's application(_:didFinishLaunchingWithOptions:).")
        }
      case .appIsIdle: container.appIsIdle()
      case .pause: container.pause()
      case .resume: container.resume()
      }
    }
  }
}
