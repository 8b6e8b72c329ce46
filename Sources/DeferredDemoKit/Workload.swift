/// How much work the demo's services do, and how slow its simulated remote is.
///
/// Every service does real work in proportion to ``scale``: rasterising, parsing, hashing,
/// filtering. Only the remote's round trip is simulated (a `Task.sleep` of ``latency``), and it
/// is not scaled: a slower device does not make the network slower.
public struct Workload: Sendable, Hashable {
  /// The factor every service's work is multiplied by: 1 is the standard launch, 2 stands for
  /// a device half as fast.
  public var scale: Double
  /// One simulated round trip to the remote.
  public var latency: Duration

  /// Creates a workload.
  ///
  /// - Parameters:
  ///   - scale: The factor every service's work is multiplied by.
  ///   - latency: One simulated round trip to the remote.
  public init(scale: Double = 1, latency: Duration = .milliseconds(40)) {
    self.scale = scale
    self.latency = latency
  }

  /// The launch the demo measures.
  public static let standard = Workload()

  /// A launch for tests: a few hundredths of a millisecond of work, and no simulated latency.
  public static let tiny = Workload(scale: 0.002, latency: .zero)

  /// `base` units of work, scaled; at least one.
  func count(_ base: Int) -> Int {
    max(1, Int((Double(base) * scale).rounded()))
  }
}
