/// How long and how often to measure.
struct Mode: Sendable {
  /// `full` or `quick`.
  let name: String
  /// A sample runs at least this long once calibrated.
  let sampleNanoseconds: UInt64
  /// Timed samples per row, after calibration and one warm-up sample.
  let repetitions: Int
  /// Fresh processes per row of the cold scenario.
  let coldProcesses: Int
  /// Resolves counted when checking allocations.
  let countedResolves: Int

  /// Samples of at least 10 ms, 11 of them: for numbers worth reading.
  static let full = Mode(
    name: "full", sampleNanoseconds: 10_000_000, repetitions: 11, coldProcesses: 9,
    countedResolves: 100_000)

  /// Brief samples: checks that every scenario still runs, in a few seconds.
  static let quick = Mode(
    name: "quick", sampleNanoseconds: 1_000_000, repetitions: 3, coldProcesses: 3,
    countedResolves: 1_000)
}
