/// A small seeded random generator: the demo's generated data, and the tests' random graphs,
/// are the same on every run.
package struct SplitMix: RandomNumberGenerator {
  private var state: UInt64

  /// Starts the sequence at `seed`.
  package init(seed: UInt64) { state = seed }

  /// The next number of the sequence.
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<1`.
  mutating func unit() -> Double {
    Double(next() >> 11) / Double(1 << 53)
  }
}

/// FNV-1a, 64 bits, over bytes: how the demo fingerprints records.
func fnv1a<Bytes: Sequence<UInt8>>(_ bytes: Bytes, seed: UInt64 = 0xCBF2_9CE4_8422_2325)
  -> UInt64
{
  var hash = seed
  for byte in bytes {
    hash ^= UInt64(byte)
    hash &*= 0x0000_0100_0000_01B3
  }
  return hash
}
