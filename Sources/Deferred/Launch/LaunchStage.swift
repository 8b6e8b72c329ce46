/// Where a service's build falls in an app's launch, earliest first: the stage of its
/// ``Priority``.
///
/// ```swift
/// Priority.critical.stage  // .critical
/// Priority.afterFirstFrame(.utility).stage < Priority.idle().stage  // true
/// ```
public enum LaunchStage: Int, Sendable, Hashable, Comparable, CaseIterable,
  CustomStringConvertible
{
  /// Built by ``Container/launch(_:)``, before the first frame.
  case critical
  /// Built in the background once the first frame is drawn.
  case afterFirstFrame
  /// Built a while after the first frame, or when the app is idle.
  case idle
  /// Built only when something resolves it.
  case onDemand

  /// Orders stages as they come in a launch.
  ///
  /// - Parameters:
  ///   - lhs: A stage.
  ///   - rhs: Another stage.
  /// - Returns: Whether `lhs` comes before `rhs`.
  public static func < (lhs: LaunchStage, rhs: LaunchStage) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// The stage's name, as reports show it: `critical`, `afterFirstFrame`, `idle`, `onDemand`.
  public var description: String {
    switch self {
    case .critical: "critical"
    case .afterFirstFrame: "afterFirstFrame"
    case .idle: "idle"
    case .onDemand: "onDemand"
    }
  }
}
