extension Report.ScenarioResult {
  /// The scenario as a table: each row's median, min and max, and its median over Deferred's.
  var table: String {
    let reference = rows.first { $0.name == Contender.deferred }?.summary?.median
    var lines = [
      "\(scenario.name): \(scenario.title)",
      "  " + padded("row", 20) + padded("median", 12, alignRight: true)
        + padded("min", 12, alignRight: true) + padded("max", 12, alignRight: true)
        + padded("vs Deferred", 14, alignRight: true),
    ]
    for row in rows {
      switch row.outcome {
      case .measured(let summary):
        let versus = reference.map { ratio(summary.median / $0) } ?? "-"
        lines.append(
          "  " + padded(row.name, 20) + padded(fixed(summary.median, 2), 12, alignRight: true)
            + padded(fixed(summary.min, 2), 12, alignRight: true)
            + padded(fixed(summary.max, 2), 12, alignRight: true)
            + padded(versus, 14, alignRight: true))
      case .unsupported(let reason):
        lines.append("  " + padded(row.name, 20) + "not run: \(reason)")
      case .failed(let reason):
        lines.append("  " + padded(row.name, 20) + "FAILED: \(reason)")
      }
    }
    return lines.joined(separator: "\n")
  }
}

extension Report {
  /// The checks that are not timings, as tables.
  var checksTable: String {
    var lines = [
      "survives10000On512KiB: resolve the last of a chain of \(DeepChain.length) services on a "
        + "thread with a 512 KiB stack"
    ]
    for outcome in survival {
      lines.append(
        "  " + padded(outcome.contender, 20) + padded(outcome.survived ? "true" : "false", 7)
          + outcome.detail)
    }
    lines.append("")
    lines.append("allocationsPerResolveCached: heap allocations per resolve of a built singleton")
    if let allocations {
      for outcome in allocations {
        lines.append(
          "  " + padded(outcome.contender, 20)
            + padded(fixed(outcome.perResolve, 2), 12, alignRight: true))
      }
    } else {
      lines.append("  not counted: malloc-interposer is not in charge of allocations here")
    }
    lines.append("")
    lines.append(
      "memoryPerService: bytes kept per registered service and per built singleton, at "
        + "\(MemoryPerService.services) services")
    if let memory {
      lines.append(
        "  " + padded("row", 20) + padded("registered", 12, alignRight: true)
          + padded("built", 12, alignRight: true))
      for outcome in memory {
        lines.append(
          "  " + padded(outcome.contender, 20)
            + padded(fixed(outcome.bytesPerRegistration, 1), 12, alignRight: true)
            + padded(fixed(outcome.bytesPerBuiltSingleton, 1), 12, alignRight: true))
      }
    } else {
      lines.append("  not counted: malloc-interposer is not in charge of allocations here")
    }
    lines.append("")
    lines.append(
      "registerCold: registering \(RegisterCold.length) services in a fresh process, per "
        + "registration")
    lines.append(
      "  " + padded("row", 20) + padded("ns", 12, alignRight: true)
        + padded("instructions", 14, alignRight: true))
    for outcome in registerCold {
      lines.append(
        "  " + padded(outcome.form, 20)
          + padded(
            outcome.nanosecondsPerRegistration.map { fixed($0, 1) } ?? "-", 12, alignRight: true)
          + padded(
            outcome.instructionsPerRegistration.map { fixed($0, 0) } ?? "-", 14, alignRight: true))
    }
    return lines.joined(separator: "\n")
  }
}
