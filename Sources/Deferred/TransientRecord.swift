/// What a transient service cost, all its builds together, in a ``LaunchReport``.
public struct TransientRecord: Sendable, Hashable {
  /// The service, as its key prints.
  public var service: String
  /// How many times it was built.
  public var count: Int
  /// All its builds together.
  public var total: Duration
  /// The median build.
  public var median: Duration
  /// The longest build.
  public var max: Duration

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - service: The service.
  ///   - count: How many times it was built.
  ///   - total: All builds together.
  ///   - median: The median build.
  ///   - max: The longest build.
  public init(service: String, count: Int, total: Duration, median: Duration, max: Duration) {
    self.service = service
    self.count = count
    self.total = total
    self.median = median
    self.max = max
  }
}

extension TransientRecord: Codable {
  private enum CodingKeys: String, CodingKey {
    case service, count, totalNs, medianNs, maxNs
  }

  /// Reads a record in the shape of the report's JSON schema.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a missing field or a value of the wrong kind.
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      service: try values.decode(String.self, forKey: .service),
      count: try values.decodeIfPresent(Int.self, forKey: .count) ?? 0,
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
    try values.encodeNanoseconds(total, forKey: .totalNs)
    try values.encodeNanoseconds(median, forKey: .medianNs)
    try values.encodeNanoseconds(max, forKey: .maxNs)
  }
}
