extension Report {
  /// The report as one JSON object: the medians, in nanoseconds per operation, by scenario and
  /// row; rows that cannot run are left out.
  var json: String {
    var lines = [
      "{",
      "  \"unit\": \"ns/op\",",
      "  \"machine\": \(quoted(machine)),",
      "  \"date\": \(quoted(date)),",
      "  \"mode\": \(quoted(mode.name)),",
      "  \"scenarios\": {",
    ]
    var scenarioLines: [String] = []
    for result in scenarios {
      var medians: [(String, String)] = []
      for row in result.rows {
        if case .measured(let summary) = row.outcome {
          medians.append((row.name, fixed(summary.median, 2)))
        }
      }
      scenarioLines.append("    \(quoted(result.scenario.name)): \(object(medians))")
    }
    lines.append(scenarioLines.joined(separator: ",\n"))
    lines.append("  },")
    var tail = [
      "  \"survives10000On512KiB\": "
        + object(survival.map { ($0.contender, $0.survived ? "true" : "false") })
    ]
    if let quality = schedulingQuality {
      // Each row's ratio: the mean over sizes and seeds, then per size.
      let rows = SchedulingQuality.rows
      tail.append(
        "  \"schedulingQuality\": "
          + object(rows.map { ($0, fixed(quality.overall[$0] ?? 0, 3)) }))
      tail.append(
        "  \"schedulingQualityBySize\": "
          + object(
            quality.settings.sizes.map { size in
              (String(size), object(rows.map { ($0, fixed(quality.bySize[size]?[$0] ?? 0, 3)) }))
            }))
    }
    if let allocations {
      tail.append(
        "  \"allocationsPerResolveCached\": "
          + object(allocations.map { ($0.contender, fixed($0.perResolve, 2)) }))
    }
    if let memory {
      tail.append(
        "  \"memoryPerService\": "
          + object(
            memory.map {
              (
                $0.contender,
                object([
                  ("bytesPerRegistration", fixed($0.bytesPerRegistration, 1)),
                  ("bytesPerBuiltSingleton", fixed($0.bytesPerBuiltSingleton, 1)),
                ])
              )
            }))
    }
    tail.append(
      "  \"registerCold\": "
        + object(
          registerCold.map { outcome in
            var members: [(String, String)] = []
            if let nanoseconds = outcome.nanosecondsPerRegistration {
              members.append(("nsPerRegistration", fixed(nanoseconds, 1)))
            }
            if let instructions = outcome.instructionsPerRegistration {
              members.append(("instructionsPerRegistration", fixed(instructions, 0)))
            }
            return (outcome.form, object(members))
          }))
    if let compileTime { tail.append("  \"compileTime1000\": \(compileTime)") }
    lines.append(tail.joined(separator: ",\n"))
    lines.append("}")
    return lines.joined(separator: "\n")
  }
}

/// `{"key": value, …}` on one line, in the order given; values are JSON already.
private func object(_ members: [(String, String)]) -> String {
  "{" + members.map { "\(quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
}

/// `text` as a JSON string.
private func quoted(_ text: String) -> String {
  var result = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case "\n": result += "\\n"
    case _ where scalar.value < 0x20:
      let hex = String(scalar.value, radix: 16)
      result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    default: result.unicodeScalars.append(scalar)
    }
  }
  return result + "\""
}
