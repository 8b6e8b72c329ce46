/// A histogram of durations from the field: how many launches, or builds, fell in each bucket,
/// as MetricKit reports them (`MXHistogram<UnitDuration>`).
///
/// Percentiles are read from the buckets: the bucket that holds the percentile's rank, and a
/// straight line through it from its start to its end. They are as precise as the buckets are
/// narrow (MetricKit's launch buckets are 10 ms wide).
///
/// ```swift
/// let launches = FieldHistogram(buckets: [
///   .init(start: .milliseconds(300), end: .milliseconds(310), count: 6),
///   .init(start: .milliseconds(400), end: .milliseconds(410), count: 2),
/// ])
/// launches.percentile(0.5)  // 308.3 ms
/// ```
public struct FieldHistogram: Sendable, Hashable, Codable {
  /// One bucket: the durations from `start` to `end`, and how many fell in it.
  public struct Bucket: Sendable, Hashable, Codable {
    /// Where the bucket starts.
    public var start: Duration
    /// Where it ends (at least `start`).
    public var end: Duration
    /// How many samples fell in it.
    public var count: Int

    /// Creates a bucket.
    ///
    /// - Parameters:
    ///   - start: Where it starts.
    ///   - end: Where it ends.
    ///   - count: How many samples fell in it.
    public init(start: Duration, end: Duration, count: Int) {
      self.start = start
      self.end = max(start, end)
      self.count = max(0, count)
    }

    private enum CodingKeys: String, CodingKey {
      case startNs, endNs, count
    }

    /// Reads a bucket in the shape ``encode(to:)`` writes.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a missing field or a value of the wrong kind.
    public init(from decoder: any Decoder) throws {
      let values = try decoder.container(keyedBy: CodingKeys.self)
      self.init(
        start: .nanoseconds(try values.decode(Int64.self, forKey: .startNs)),
        end: .nanoseconds(try values.decode(Int64.self, forKey: .endNs)),
        count: try values.decode(Int.self, forKey: .count))
    }

    /// Writes the bucket: `startNs`, `endNs` (whole nanoseconds) and `count`.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
      var values = encoder.container(keyedBy: CodingKeys.self)
      try values.encode(start.wholeNanoseconds, forKey: .startNs)
      try values.encode(end.wholeNanoseconds, forKey: .endNs)
      try values.encode(count, forKey: .count)
    }
  }

  /// The buckets, by start, buckets with the same bounds merged.
  public private(set) var buckets: [Bucket]

  /// Creates a histogram; buckets with the same bounds are added together.
  ///
  /// - Parameter buckets: The buckets, in any order.
  public init(buckets: [Bucket] = []) {
    var merged: [Bucket] = []
    for bucket in buckets.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
      if let last = merged.last, last.start == bucket.start, last.end == bucket.end {
        merged[merged.count - 1].count = last.count.addingClamped(bucket.count)
      } else {
        merged.append(bucket)
      }
    }
    self.buckets = merged
  }

  /// How many samples, in every bucket.
  public var count: Int { buckets.reduce(0) { $0.addingClamped($1.count) } }

  /// Whether it holds no sample.
  public var isEmpty: Bool { count == 0 }

  /// The duration below which a `fraction` of the samples fall (0.5: the median, 0.9: the
  /// 90th percentile), read from the buckets; `nil` for an empty histogram.
  ///
  /// - Parameter fraction: From 0 to 1; values outside are taken as the nearest end.
  /// - Returns: A duration within the bucket that holds the rank.
  public func percentile(_ fraction: Double) -> Duration? {
    let total = count
    guard total > 0 else { return nil }
    let rank = min(max(fraction.isNaN ? 0.5 : fraction, 0), 1) * Double(total)
    var below = 0.0
    for bucket in buckets where bucket.count > 0 {
      let next = below + Double(bucket.count)
      if rank <= next {
        let within = (rank - below) / Double(bucket.count)
        return bucket.start + (bucket.end - bucket.start) * within
      }
      below = next
    }
    return buckets.last { $0.count > 0 }?.end
  }

  /// The median: ``percentile(_:)`` of 0.5.
  public var p50: Duration? { percentile(0.5) }
  /// The 90th percentile: ``percentile(_:)`` of 0.9.
  public var p90: Duration? { percentile(0.9) }

  /// This histogram and `other` together: their samples in one histogram.
  ///
  /// - Parameter other: Another histogram of the same measure.
  /// - Returns: The sum of the two.
  public func merging(_ other: FieldHistogram) -> FieldHistogram {
    FieldHistogram(buckets: buckets + other.buckets)
  }

  private enum CodingKeys: String, CodingKey {
    case buckets
  }

  /// Reads a histogram in the shape ``encode(to:)`` writes.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a missing field or a value of the wrong kind.
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    self.init(buckets: try values.decode([Bucket].self, forKey: .buckets))
  }

  /// Writes the histogram: its `buckets`.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var values = encoder.container(keyedBy: CodingKeys.self)
    try values.encode(buckets, forKey: .buckets)
  }
}

extension Int {
  /// The sum, held at `Int.max`: a payload's counts are the system's, and may be anything.
  func addingClamped(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? .max : sum
  }
}

extension Duration {
  /// The duration in whole nanoseconds, held within `Int64`.
  var wholeNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return seconds < 0 ? .min : .max }
    let (sum, overflowSum) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
    return overflowSum ? (seconds < 0 ? .min : .max) : sum
  }
}
