import Deferred

extension FieldReport {
  /// The report as a table: the launch histograms and phases, then each service, the field's
  /// count, median and 90th percentile beside this device's time, then the services that grew
  /// between payloads.
  ///
  /// ```text
  /// Field: 2 payloads (2026-11-26 06:59:00 +0000 … 2026-11-27 06:59:00 +0000)
  ///
  /// launch                          count        p50        p90   this device
  ///   time to first draw              140   1516.7 ms  2008.0 ms     412.3 ms
  /// service                         count        p50        p90   this device
  ///   ThemeEngine                     140     31.0 ms    48.0 ms      22.1 ms
  /// grew between payloads
  ///   SyncService: 12.0 ms → 18.5 ms (+54%)
  /// ```
  ///
  /// - Returns: The text, lines ending in a newline.
  public func text() -> String {
    let width = max(30, (joined.map(\.name.count).max() ?? 0) + 4)
    func row(_ name: String, _ stats: Stats?, _ local: Duration?) -> String {
      FieldFormat.left("  " + name, width)
        + FieldFormat.right(stats.map { String($0.count) } ?? "-", 7)
        + FieldFormat.right(FieldFormat.milliseconds(stats?.p50), 12)
        + FieldFormat.right(FieldFormat.milliseconds(stats?.p90), 12)
        + FieldFormat.right(FieldFormat.milliseconds(local), 14) + "\n"
    }
    func header(_ title: String) -> String {
      FieldFormat.left(title, width) + FieldFormat.right("count", 7)
        + FieldFormat.right("p50", 12) + FieldFormat.right("p90", 12)
        + FieldFormat.right("this device", 14) + "\n"
    }
    let span =
      days.isEmpty
      ? "" : days.count == 1 ? " (\(days[0]))" : " (\(days[0]) … \(days[days.count - 1]))"
    var text = "Field: \(payloadCount) payload\(payloadCount == 1 ? "" : "s")\(span)\n"
    if isEmpty {
      text += "  no launch histograms and no Deferred signposts in the payloads\n"
    }
    let metrics = FieldLaunchMetric.allCases.filter { launch[$0]?.isEmpty == false }
    if !metrics.isEmpty {
      text += "\n" + header("launch")
      for metric in metrics {
        text += row(metric.title, launch[metric].map(Stats.init), localTime(of: metric))
      }
    }
    let phaseNames = FieldSignposts.Name.allCases.filter { phases[$0]?.isEmpty == false }
    if !phaseNames.isEmpty {
      text += "\n" + header("phase")
      for phase in phaseNames {
        text += row(phase.rawValue, phases[phase].map(Stats.init), localTime(of: phase))
      }
    }
    let rows = joined
    if !rows.isEmpty {
      text += "\n" + header("service")
      for service in rows { text += row(service.name, service.field, service.local) }
    }
    if !grown.isEmpty {
      text += "\ngrew between payloads\n"
      for growth in grown { text += "  \(growth)\n" }
    }
    if foreignSignposts > 0 {
      text +=
        "\n\(foreignSignposts) signpost metric\(foreignSignposts == 1 ? "" : "s") of other"
        + " categories left out\n"
    }
    return text
  }
}
