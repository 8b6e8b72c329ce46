/// What a transient service cost, all its builds together, in a ``LaunchReport``.
public struct TransientRecord: Sendable, Hashable {
  /// The service, as its key prints.
  public var service: String
  /// How many times it was built: every build, timed or not.
  public var count: Int
  /// How many of its builds were timed: `total`, `median` and `max` are theirs. The first
  /// 1,024 builds are; past them, one in 64 made at once (outside any other build), and every
  /// one made inside a build. `total` is not scaled up to `count`.
  public var timed: Int
  /// All its timed builds together (all its builds when `timed` is `count`).
  public var total: Duration
  /// The median of the first 1,024 timed builds.
  public var median: Duration
  /// The longest timed build.
  public var max: Duration

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - service: The service.
  ///   - count: How many times it was built.
  ///   - timed: How many of those builds were timed; all of them (`count`) if `nil`.
  ///   - total: All timed builds together.
  ///   - median: The median timed build.
  ///   - max: The longest timed build.
  public init(
    service: String, count: Int, timed: Int? = nil, total: Duration, median: Duration,
    max: Duration
  ) {
    self.service = service
    self.count = count
    self.timed = timed ?? count
    self.total = total
    self.median = median
    self.max = max
  }
}

extension TransientRecord: Codable {
  private enum CodingKeys: String, CodingKey {
    case service, count, timedCount, totalNs, medianNs, maxNs
  }

  /// Reads a record in the shape of the report's JSON schema (`timedCount`, absent from older
  /// reports, is then `count`).
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a missing field or a value of the wrong kind.
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      service: try values.decode(String.self, forKey: .service),
      count: try values.decodeIfPresent(Int.self, forKey: .count) ?? 0,
      timed: try values.decodeIfPresent(Int.self, forKey: .timedCount),
      total: try values.decodeNanoseconds(forKey: .totalNs),
      median: try values.decodeNanoseconds(forKey: .medianNs),
      max: try values.decodeNanoseconds(forKey: .maxNs))
  }

  /// Writes the record in the shape of the report's JSON schema: times in whole nanoseconds.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var values = encoder.container(keyedBy: CodingKeys.self)
    try values.encode(service, forKey: .service)
    try values.encode(count, forKey: .count)
    if timed != count { try values.encode(timed, forKey: .timedCount) }
    try values.encodeNanoseconds(total, forKey: .totalNs)
    try values.encodeNanoseconds(median, forKey: .medianNs)
    try values.encodeNanoseconds(max, forKey: .maxNs)
  }
}
