#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A position the location provider reports.
public struct Fix: Sendable, Hashable {
  /// Degrees north.
  public let latitude: Double
  /// Degrees east.
  public let longitude: Double
  /// The filter's uncertainty, in metres.
  public let accuracy: Double
}

/// A location-like provider: it warms up by calibrating its compass (a least-squares sphere
/// fit) and its position filter (a Kalman filter run over recorded sensor samples), then emits
/// a stream of positions.
public final class LocationProvider: Sendable {
  /// The compass's hard-iron offset found by the calibration, per axis.
  public let compassOffset: (x: Double, y: Double, z: Double)
  /// How many samples the warm-up ran through.
  public let warmUpSamples: Int
  private let track: Track

  /// Warms up: real computation in proportion to the workload.
  ///
  /// - Parameter workload: How much work to do.
  public init(workload: Workload) {
    let samples = workload.count(70_000)
    var random = SplitMix(seed: 7)
    // Compass: the offset of a sphere of noisy readings.
    var normal = [Double](repeating: 0, count: 20)
    for _ in 0..<samples / 4 {
      let theta = random.unit() * 2 * Double.pi
      let z = random.unit() * 2 - 1
      let r = (1 - z * z).squareRoot()
      let m = (
        31 + 48 * r * cos(theta) + random.gaussian() * 0.4,
        -12 + 48 * r * sin(theta) + random.gaussian() * 0.4, 5 + 48 * z + random.gaussian() * 0.4
      )
      let row = [2 * m.0, 2 * m.1, 2 * m.2, 1]
      let target = m.0 * m.0 + m.1 * m.1 + m.2 * m.2
      for i in 0..<4 {
        for j in 0..<4 { normal[i * 5 + j] += row[i] * row[j] }
        normal[i * 5 + 4] += row[i] * target
      }
    }
    let solution = solve4(normal)
    compassOffset = (solution[0], solution[1], solution[2])
    // Position: a constant-velocity Kalman filter over a noisy walk.
    var track = Track()
    for step in 0..<samples { track.step(sample: step, random: &random) }
    self.track = track
    warmUpSamples = samples
  }

  /// Emits `count` positions, each after filtering another second of samples.
  ///
  /// - Parameter count: How many positions.
  /// - Returns: The positions.
  public func fixes(count: Int) -> AsyncStream<Fix> {
    let (stream, continuation) = AsyncStream.makeStream(of: Fix.self)
    let start = track
    Task {
      var track = start
      var random = SplitMix(seed: 11)
      for index in 0..<count {
        for sample in 0..<50 {
          track.step(sample: 1_000_000 + index * 50 + sample, random: &random)
        }
        continuation.yield(track.fix)
      }
      continuation.finish()
    }
    return stream
  }
}
