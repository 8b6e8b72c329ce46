/// The median and the 95th percentile of a set of times.
public struct Statistics: Sendable, Hashable {
  /// The middle value; the mean of the two middle ones for an even count.
  public let median: Double
  /// The 95th percentile, by nearest rank: the smallest value at least 95% of the values do
  /// not exceed (the largest of up to 19 values).
  public let p95: Double

  /// Computes both.
  ///
  /// - Parameter values: The values; at least one.
  public init(_ values: [Double]) {
    precondition(!values.isEmpty, "statistics of nothing")
    let sorted = values.sorted()
    let middle = sorted.count / 2
    median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    let rank = (95 * sorted.count + 99) / 100
    p95 = sorted[max(0, rank - 1)]
  }
}
