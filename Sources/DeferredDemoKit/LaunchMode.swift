/// How the demo app launches.
public enum LaunchMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Every service built before the first frame, on the main thread: how apps launch without
  /// Deferred.
  case eager
  /// Only what the first frame needs before it; the rest after it, when the app is idle, or on
  /// first use.
  case deferred

  /// The mode's name.
  public var description: String { rawValue }

  /// What the mode does, in a line.
  public var summary: String {
    switch self {
    case .eager: "builds every service before its first frame, on the main thread"
    case .deferred: "builds what the first frame needs; the rest after it, or on first use"
    }
  }
}
