/// Something in a launch worth fixing, named by a ``LaunchReport``.
public struct Hazard: Sendable, Hashable, CustomStringConvertible {
  /// The kind of hazard.
  public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
    /// The main thread waited for a build on another thread.
    case mainThreadWait
    /// A service that is not critical was built before the first frame, because a critical one
    /// needs it.
    case promoted
    /// A service was built in the background and has not been handed out: warmed up for nothing
    /// (so far).
    case unusedWarmUp
    /// A deferred build failed and nobody has asked for the service since.
    case unaskedFailure
    /// One critical initializer took more than the share of the critical phase the app allows.
    case largeShare
    /// A build on the main-thread lane took longer than a frame (16.7 ms): touches and frames
    /// waited for it.
    case longMainLaneBuild
    /// A service took longer than it usually does: more than the history's
    /// `RegressionThreshold` over its median in the launches before this one
    /// (``Hazard/baseline`` is that median, ``Hazard/duration`` this launch's self time).
    case regression
    /// The first frame or full readiness came later than it usually does: the hazard's service
    /// is the milestone's name (`firstFrame`, `fullyReady`), ``Hazard/baseline`` its median
    /// offset and ``Hazard/duration`` this launch's.
    case milestoneRegression
    /// The stored `LaunchHistory` (`DeferredHistory`) could not be read (empty, truncated, corrupt, too large or
    /// of another format version): it was ignored, and is replaced by the next save.
    case historyUnreadable
    /// The `LaunchHistory` could not be saved (the directory is missing or read-only, the
    /// disk is full): this launch's costs are kept in memory only.
    case historyUnwritable
    /// The system refused a call of its field launch measurement (MetricKit's extended launch,
    /// added with ``Container/addHazard(_:)``): the field's numbers for this launch are
    /// incomplete. The hazard's service names the measurement, its detail the system's error.
    case fieldMeasurement
  }

  /// The kind of hazard.
  public var kind: Kind
  /// The service it is about.
  public var service: String
  /// What happened, in a sentence.
  public var detail: String
  /// How long it cost, where that applies.
  public var duration: Duration?
  /// What it usually costs, for a regression: the median of the launches before this one.
  public var baseline: Duration?

  /// Creates a hazard.
  ///
  /// - Parameters:
  ///   - kind: The kind.
  ///   - service: The service it is about.
  ///   - detail: What happened.
  ///   - duration: What it cost.
  ///   - baseline: What it usually costs, for a regression.
  public init(
    kind: Kind, service: String, detail: String, duration: Duration? = nil,
    baseline: Duration? = nil
  ) {
    self.kind = kind
    self.service = service
    self.detail = detail
    self.duration = duration
    self.baseline = baseline
  }

  /// The sentence that says what happened.
  public var description: String { detail }
}

extension Hazard: Codable {
  private enum CodingKeys: String, CodingKey {
    case kind, service, detail, durationNs, baselineNs
  }

  /// Reads a hazard in the shape of the report's JSON schema.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a missing field or a value of the wrong kind.
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      kind: try values.decode(Kind.self, forKey: .kind),
      service: try values.decode(String.self, forKey: .service),
      detail: try values.decode(String.self, forKey: .detail),
      duration: try values.decodeNanosecondsIfPresent(forKey: .durationNs),
      baseline: try values.decodeNanosecondsIfPresent(forKey: .baselineNs))
  }

  /// Writes the hazard in the shape of the report's JSON schema.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var values = encoder.container(keyedBy: CodingKeys.self)
    try values.encode(kind, forKey: .kind)
    try values.encode(service, forKey: .service)
    try values.encode(detail, forKey: .detail)
    try values.encodeNanoseconds(duration, forKey: .durationNs)
    try values.encodeNanosecondsIfPresent(baseline, forKey: .baselineNs)
  }
}
