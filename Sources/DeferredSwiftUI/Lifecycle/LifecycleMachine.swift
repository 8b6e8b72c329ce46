/// When to tell a container that the first frame is up, that the app is idle, and that its
/// deferred builds should pause or resume, from what the app's scenes do.
///
/// A scene-based app (every SwiftUI app, and UIKit apps with a scene manifest) never calls
/// `applicationDidBecomeActive(_:)`: the app's state is its scenes'. The machine keeps each
/// scene's phase; the app is active when one scene is, in the background when every scene is.
/// Transitions return what to call, which ``LifecycleCoordinator`` performs:
///
/// - the first frame, once, when the first scene has committed its first frame;
/// - idle, once, when the app is active after its first frame, whichever comes last;
/// - pause when the app goes to the background, resume when a scene comes back.
struct LifecycleMachine: Sendable {
  /// A scene's phase, as SwiftUI's `ScenePhase` and UIKit's activation states tell it.
  enum Phase: Sendable, Hashable {
    case background, inactive, active
  }

  /// What to call on the container.
  enum Action: Sendable, Hashable {
    case firstFrameDrawn, appIsIdle, pause, resume
  }

  private var scenes: [Int: Phase] = [:]
  private var firstFrameReported = false
  private var idleReported = false
  private var paused = false

  /// The app's phase: active if a scene is, in the background if every scene is; `nil`
  /// without scenes.
  var appPhase: Phase? {
    guard !scenes.isEmpty else { return nil }
    if scenes.values.contains(.active) { return .active }
    if scenes.values.allSatisfy({ $0 == .background }) { return .background }
    return .inactive
  }

  /// A scene appeared or changed phase.
  mutating func scene(_ id: Int, is phase: Phase) -> [Action] {
    scenes[id] = phase
    return settle()
  }

  /// A scene is gone: the app's phase is the other scenes'.
  mutating func sceneRemoved(_ id: Int) -> [Action] {
    scenes[id] = nil
    return settle()
  }

  /// A scene committed its first frame: the first one is the app's.
  mutating func firstFrameCommitted() -> [Action] {
    guard !firstFrameReported else { return [] }
    firstFrameReported = true
    return [.firstFrameDrawn] + settle()
  }

  /// What the app's phase calls for now.
  private mutating func settle() -> [Action] {
    guard let phase = appPhase else { return [] }
    var actions: [Action] = []
    if phase == .background, !paused {
      paused = true
      actions.append(.pause)
    } else if phase != .background, paused {
      paused = false
      actions.append(.resume)
    }
    if phase == .active, firstFrameReported, !idleReported {
      idleReported = true
      actions.append(.appIsIdle)
    }
    return actions
  }
}
