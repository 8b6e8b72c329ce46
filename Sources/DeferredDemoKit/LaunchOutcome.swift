import Deferred

/// What one launch did: its report, and what the user saw along the way.
public struct LaunchOutcome: Sendable {
  /// The launch's mode.
  public let mode: LaunchMode
  /// The container's report, made once every service was built.
  public let report: LaunchReport
  /// What the session did, a line each: keys, edits, simulated latency, positions.
  public let notes: [String]
  /// The edits the user made during the launch, in order.
  public let edits: [Edit]
  /// The edits the remote received, in order.
  public let delivered: [Edit]
  /// What the display showed once every key was applied.
  public let display: String
}
