/// What a transient service cost, all its builds together, in a ``LaunchReport``.
public struct TransientRecord: Sendable, Hashable {
  /// The service, as its key prints.
  public var service: String
  /// How many times it was built.
  public var count: Int
  /// All its builds together, in nanoseconds.
  public var total: UInt64
  /// The median build, in nanoseconds.
  public var median: UInt64
  /// The longest build, in nanoseconds.
  public var max: UInt64

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - service: The service.
  ///   - count: How many times it was built.
  ///   - total: All builds together.
  ///   - median: The median build.
  ///   - max: The longest build.
  public init(service: String, count: Int, total: UInt64, median: UInt64, max: UInt64) {
    self.service = service
    self.count = count
    self.total = total
    self.median = median
    self.max = max
  }
}
