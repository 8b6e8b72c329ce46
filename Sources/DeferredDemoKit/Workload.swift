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
  /// Services whose work is scaled further, by service name: `["TapeIndex": 3]` stands for a
  /// change that made the tape's index three times slower.
  public var slowed: [String: Double] = [:]

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

  /// The workload of `service`: ``scale`` times its factor in ``slowed``, if any.
  ///
  /// - Parameter service: The service's name, as reports give it.
  /// - Returns: The workload its factory is given.
  public func of(_ service: String) -> Workload {
    guard let factor = slowed[service] else { return self }
    var workload = self
    workload.scale *= factor
    workload.slowed = [:]
    return workload
  }

  /// `base` units of work, scaled; at least one.
  func count(_ base: Int) -> Int {
    max(1, Int((Double(base) * scale).rounded()))
  }
}
