#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The Kalman filter's state: position and velocity east and north, and their covariance.
struct Track: Sendable {
  var state = [0.0, 0, 0, 0]
  var covariance = [
    100.0, 0, 0, 0,
    0, 100, 0, 0,
    0, 0, 10, 0,
    0, 0, 0, 10,
  ]

  var fix: Fix {
    let metresPerDegree = 111_320.0
    let latitude = 48.8584 + state[1] / metresPerDegree
    let longitude = 2.2945 + state[0] / (metresPerDegree * cos(48.8584 * Double.pi / 180))
    return Fix(
      latitude: latitude, longitude: longitude,
      accuracy: (covariance[0] + covariance[5]).squareRoot())
  }

  /// One predict-and-update step with a noisy position sample of a walker going north-east.
  mutating func step(sample: Int, random: inout SplitMix) {
    let dt = 0.02
    let t = Double(sample) * dt
    let truth = (1.2 * t, 0.9 * t + 3 * sin(t / 40))
    let measured = (truth.0 + random.gaussian() * 4, truth.1 + random.gaussian() * 4)
    // Predict: x = F x, P = F P Fᵀ + Q.
    state[0] += state[2] * dt
    state[1] += state[3] * dt
    var p = covariance
    for column in 0..<4 {
      p[column] += dt * p[8 + column]
      p[4 + column] += dt * p[12 + column]
    }
    for row in 0..<4 {
      p[row * 4] += dt * p[row * 4 + 2]
      p[row * 4 + 1] += dt * p[row * 4 + 3]
    }
    for i in 0..<4 { p[i * 5] += i < 2 ? 0.01 : 0.05 }
    // Update with the position: S = H P Hᵀ + R, K = P Hᵀ S⁻¹.
    let s00 = p[0] + 16
    let s01 = p[1]
    let s10 = p[4]
    let s11 = p[5] + 16
    let determinant = s00 * s11 - s01 * s10
    let inverse = (s11 / determinant, -s01 / determinant, -s10 / determinant, s00 / determinant)
    let innovation = (measured.0 - state[0], measured.1 - state[1])
    var gain = [Double](repeating: 0, count: 8)
    for row in 0..<4 {
      let a = p[row * 4]
      let b = p[row * 4 + 1]
      gain[row * 2] = a * inverse.0 + b * inverse.2
      gain[row * 2 + 1] = a * inverse.1 + b * inverse.3
      state[row] += gain[row * 2] * innovation.0 + gain[row * 2 + 1] * innovation.1
    }
    // P = (I − K H) P.
    var updated = p
    for row in 0..<4 {
      for column in 0..<4 {
        updated[row * 4 + column] -=
          gain[row * 2] * p[column] + gain[row * 2 + 1] * p[4 + column]
      }
    }
    covariance = updated
  }
}

extension SplitMix {
  /// A standard normal sample (Box–Muller).
  mutating func gaussian() -> Double {
    let u = max(unit(), 1e-12)
    return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * unit())
  }
}

/// Solves the 4×4 system of an augmented 4×5 matrix, row by row, by Gaussian elimination.
func solve4(_ augmented: [Double]) -> [Double] {
  var m = augmented
  for pivot in 0..<4 {
    let best = (pivot..<4).max { abs(m[$0 * 5 + pivot]) < abs(m[$1 * 5 + pivot]) }!
    if best != pivot {
      for column in 0..<5 { m.swapAt(pivot * 5 + column, best * 5 + column) }
    }
    let divisor = m[pivot * 5 + pivot]
    guard divisor != 0 else { return [0, 0, 0, 0] }
    for row in 0..<4 where row != pivot {
      let factor = m[row * 5 + pivot] / divisor
      for column in pivot..<5 { m[row * 5 + column] -= factor * m[pivot * 5 + column] }
    }
  }
  var solution = [Double](repeating: 0, count: 4)
  for row in 0..<4 { solution[row] = m[row * 5 + 4] / m[row * 5 + row] }
  return solution
}
