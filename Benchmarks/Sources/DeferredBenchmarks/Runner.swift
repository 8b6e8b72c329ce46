/// Runs every scenario and check, and prints the report.
enum Runner {
  /// Returns the exit status: 1 if a measurement broke, else 0.
  static func run(_ mode: Mode, json: Bool) -> Int32 {
    var report = Report(machine: Machine.description, date: Machine.today, mode: mode)
    logProgress("DeferredBenchmarks, \(mode.name) mode, on \(report.machine)")
    for scenario in Scenario.all {
      logProgress(scenario.name)
      let rows = scenario.rows()
      // The timed rows are calibrated one after another, then sampled in turn: a change in
      // the machine's load during the scenario falls on every row alike.
      var samplers: [Int: () -> Double] = [:]
      for (index, row) in rows.enumerated() {
        guard let prepare = row.prepare else { continue }
        logProgress("  \(row.name): calibrating")
        samplers[index] = prepare(mode)
      }
      var figures: [Int: [Double]] = [:]
      for _ in 0..<mode.repetitions {
        for index in samplers.keys.sorted() {
          figures[index, default: []].append(samplers[index]!())
        }
      }
      let results = rows.enumerated().map { index, row in
        let outcome: Row.Outcome
        if let measured = figures[index] {
          outcome = .measured(measured)
        } else {
          logProgress("  \(row.name)")
          outcome = row.run(mode)
        }
        switch outcome {
        case .measured(let figures):
          return Report.RowResult(name: row.name, outcome: .measured(Summary(figures)))
        case .unsupported(let reason):
          return Report.RowResult(name: row.name, outcome: .unsupported(reason))
        case .failed(let reason):
          logProgress("  \(row.name) FAILED: \(reason)")
          return Report.RowResult(name: row.name, outcome: .failed(reason))
        }
      }
      let result = Report.ScenarioResult(scenario: scenario, rows: results)
      report.scenarios.append(result)
      if !json { print(result.table + "\n") }
    }
    logProgress("survives10000On512KiB")
    report.survival = DeepChainSurvival.check()
    logProgress("allocationsPerResolveCached")
    report.allocations = AllocationCount.check(mode)
    print(json ? report.json : report.checksTable)
    return report.hasFailures ? 1 : 0
  }
}
