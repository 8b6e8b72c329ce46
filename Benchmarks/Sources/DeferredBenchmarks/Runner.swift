/// Runs every scenario and check, and prints the report.
enum Runner {
  /// Returns the exit status: 1 if a measurement broke, else 0.
  static func run(_ mode: Mode, json: Bool) -> Int32 {
    var report = Report(machine: Machine.description, date: Machine.today, mode: mode)
    logProgress("DeferredBenchmarks, \(mode.name) mode, on \(report.machine)")
    for scenario in Scenario.all {
      logProgress(scenario.name)
      let rows = scenario.rows().map { row in
        logProgress("  \(row.name)")
        switch row.run(mode) {
        case .measured(let figures):
          return Report.RowResult(name: row.name, outcome: .measured(Summary(figures)))
        case .unsupported(let reason):
          return Report.RowResult(name: row.name, outcome: .unsupported(reason))
        case .failed(let reason):
          logProgress("  \(row.name) FAILED: \(reason)")
          return Report.RowResult(name: row.name, outcome: .failed(reason))
        }
      }
      let result = Report.ScenarioResult(scenario: scenario, rows: rows)
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
