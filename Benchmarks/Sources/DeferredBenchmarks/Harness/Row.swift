/// One contender in a scenario: how to measure it, or why it cannot be.
struct Row {
  enum Outcome {
    /// Nanoseconds per operation, one figure per repetition.
    case measured([Double])
    /// The contender cannot run this scenario, for the reason given.
    case unsupported(String)
    /// The measurement broke, for the reason given: the run ends with a failure status.
    case failed(String)
  }

  /// How a row is measured.
  enum Measurement {
    /// Timed by the harness: calibrates and warms the row up, and returns a function that
    /// takes one sample (nanoseconds per operation). The runner takes the samples of a
    /// scenario's timed rows in turn, so that whatever else the machine does falls on all alike.
    case timed((Mode) -> () -> Double)
    /// Measured whole by the row itself (in child processes, say), or not at all.
    case whole((Mode) -> Outcome)
  }

  let name: String
  let measurement: Measurement

  init(name: String, run: @escaping (Mode) -> Outcome) {
    self.name = name
    self.measurement = .whole(run)
  }

  private init(name: String, prepare: @escaping (Mode) -> () -> Double) {
    self.name = name
    self.measurement = .timed(prepare)
  }

  /// A row that cannot run, and why: shown in the table, left out of the JSON.
  static func unsupported(_ name: String, _ reason: String) -> Row {
    Row(name: name) { _ in .unsupported(reason) }
  }

  /// A row timed by the harness.
  ///
  /// `prepare` runs once, untimed, and returns the sample function: it runs `iterations`
  /// iterations of `operationsPerIteration` operations each, doing any per-sample set-up
  /// outside its clock, and returns the nanoseconds the operations took. The harness grows
  /// `iterations` until a sample takes the mode's sample time and runs one warm-up sample;
  /// the runner then takes the mode's repetitions, in turn with the scenario's other rows.
  static func calibrated(
    _ name: String, operationsPerIteration: Int = 1,
    prepare: @escaping () -> (_ iterations: Int) -> UInt64
  ) -> Row {
    Row(name: name) { (mode: Mode) -> () -> Double in
      let sample = prepare()
      let iterations = calibrate(sample, target: mode.sampleNanoseconds)
      _ = sample(iterations)
      let operations = Double(iterations * operationsPerIteration)
      return { Double(sample(iterations)) / operations }
    }
  }

  /// An iteration count whose sample takes at least `target`. Each count is tried twice and
  /// the faster try counts, so that one preempted sample does not end the search early.
  private static func calibrate(_ sample: (Int) -> UInt64, target: UInt64) -> Int {
    var iterations = 1
    while true {
      let elapsed = min(sample(iterations), sample(iterations))
      if elapsed >= target { return iterations }
      // Aim a little past the target, growing at least 2× and at most 100× per step.
      let estimate = Double(iterations) * Double(target) / Double(max(elapsed, 1)) * 1.2
      iterations = min(iterations * 100, max(iterations * 2, Int(estimate)))
    }
  }
}
