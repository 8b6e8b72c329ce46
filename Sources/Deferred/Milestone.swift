/// A step of the launch and when it happened, in a ``LaunchReport``.
public struct Milestone: Sendable, Hashable {
  /// The steps of a launch, in order.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The process started (offset zero).
    case processStart
    /// ``Container/launch(_:)`` was called.
    case launchBegan
    /// Every critical service was built.
    case criticalReady
    /// The app reported its first frame.
    case firstFrame
    /// Every service scheduled after the first frame was built (or failed).
    case fullyReady

    /// A readable name: "first frame".
    public var title: String {
      switch self {
      case .processStart: "process start"
      case .launchBegan: "launch began"
      case .criticalReady: "critical ready"
      case .firstFrame: "first frame"
      case .fullyReady: "fully ready"
      }
    }
  }

  /// Which step.
  public var kind: Kind
  /// When, in nanoseconds from the process start.
  public var offset: UInt64

  /// Creates a milestone.
  ///
  /// - Parameters:
  ///   - kind: Which step.
  ///   - offset: When, from the process start.
  public init(_ kind: Kind, at offset: UInt64) {
    self.kind = kind
    self.offset = offset
  }
}
