/// Everything a run measured, ready to print.
struct Report {
  struct ScenarioResult {
    let scenario: Scenario
    let rows: [RowResult]
  }

  struct RowResult {
    enum Outcome {
      case measured(Summary)
      case unsupported(String)
      case failed(String)
    }

    let name: String
    let outcome: Outcome

    var summary: Summary? {
      if case .measured(let summary) = outcome { return summary }
      return nil
    }
  }

  let machine: String
  let date: String
  let mode: Mode
  var scenarios: [ScenarioResult] = []
  var survival: [DeepChainSurvival.Outcome] = []
  /// How close each way of running a launch comes to the ideal schedule.
  var schedulingQuality: SchedulingQuality.Outcome?
  /// `nil` where allocations cannot be counted.
  var allocations: [AllocationCount.Outcome]?
  /// `nil` where bytes cannot be counted.
  var memory: [MemoryPerService.Outcome]?
  var registerCold: [RegisterCold.Outcome] = []
  /// The `compileTime1000` object of `Scripts/compile-time.sh`, as it wrote it (JSON already).
  var compileTime: String?

  /// Whether a measurement broke.
  var hasFailures: Bool {
    scenarios.contains { result in
      result.rows.contains { row in
        if case .failed = row.outcome { return true }
        return false
      }
    }
  }
}
