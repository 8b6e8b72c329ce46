/// Runs every scenario and check, and prints the report.
enum Runner {
  /// Returns the exit status: 1 if a measurement broke, else 0. With `only`, runs those
  /// scenarios and no check.
  static func run(
    _ mode: Mode, json: Bool, compileTime: String? = nil, only: Set<String>? = nil
  ) -> Int32 {
    var report = Report(machine: Machine.description, date: Machine.today, mode: mode)
    logProgress("DeferredBenchmarks, \(mode.name) mode, on \(report.machine)")
    for scenario in Scenario.all where only?.contains(scenario.name) ?? true {
      logProgress(scenario.name)
      let rows = scenario.rows()
      // The timed rows are calibrated one after another, then sampled in turn: a change in
      // the machine's load during the scenario falls on every row alike.
      let samplers = rows.map { row -> (() -> Double)? in
        guard case .timed(let prepare) = row.measurement else { return nil }
        logProgress("  \(row.name): calibrating")
        return prepare(mode)
      }
      var figures = samplers.map { _ in [Double]() }
      for _ in 0..<mode.repetitions {
        for (index, sample) in samplers.enumerated() {
          if let sample { figures[index].append(sample()) }
        }
      }
      let results = zip(rows, figures).map { row, figures in
        let outcome: Row.Outcome
        switch row.measurement {
        case .timed:
          outcome = .measured(figures)
        case .whole(let run):
          logProgress("  \(row.name)")
          outcome = run(mode)
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
    if only != nil {
      if json { print(report.json) }
      return report.hasFailures ? 1 : 0
    }
    logProgress("schedulingQuality")
    report.schedulingQuality = SchedulingQuality.check(mode)
    if !json, let quality = report.schedulingQuality { print(quality.table + "\n") }
    logProgress("survives10000On512KiB")
    report.survival = DeepChainSurvival.check()
    logProgress("allocationsPerResolveCached")
    report.allocations = AllocationCount.check(mode)
    logProgress("memoryPerService")
    report.memory = MemoryPerService.check()
    logProgress("registerCold")
    report.registerCold = RegisterCold.check(mode)
    if let compileTime {
      guard let figures = CompileTime.read(compileTime) else {
        logProgress("no compile-time figures in \(compileTime)")
        return 1
      }
      report.compileTime = figures
    }
    print(json ? report.json : report.checksTable)
    return report.hasFailures ? 1 : 0
  }
}
