/// A step of the launch and when it happened, in a ``LaunchReport``.
public struct Milestone: Sendable, Hashable {
  /// The steps of a launch, in order.
  public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
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
  /// When, from the process start.
  public var offset: Duration

  /// Creates a milestone.
  ///
  /// - Parameters:
  ///   - kind: Which step.
  ///   - offset: When, from the process start.
  public init(_ kind: Kind, at offset: Duration) {
    self.kind = kind
    self.offset = offset
  }
}

extension Milestone: Codable {
  private enum CodingKeys: String, CodingKey {
    case name, offsetNs
  }

  /// Reads a milestone in the shape of the report's JSON schema: `name` and `offsetNs`.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a missing field or a value of the wrong kind.
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      try values.decode(Kind.self, forKey: .name),
      at: try values.decodeNanoseconds(forKey: .offsetNs))
  }

  /// Writes the milestone in the shape of the report's JSON schema.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var values = encoder.container(keyedBy: CodingKeys.self)
    try values.encode(kind, forKey: .name)
    try values.encodeNanoseconds(offset, forKey: .offsetNs)
  }
}
