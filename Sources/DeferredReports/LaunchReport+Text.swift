import Deferred

extension LaunchReport {
  /// The launch as a table to read in a console: the milestones, then each phase's builds
  /// (costliest first, with totals), transient services, and the hazards.
  ///
  /// ```
  /// Milestones (process start from the operating system, ±10.00 ms)
  ///   launch began         21.40 ms
  ///   critical ready       63.02 ms
  ///   first frame          70.11 ms
  ///   fully ready         201.84 ms
  ///
  /// critical: 2 builds, 41.50 ms
  ///   service       time       self        cpu  thread  trigger  start
  ///   Theme     38.10 ms   38.10 ms   37.95 ms  main    launch   21.52 ms
  /// ```
  ///
  /// - Returns: The table.
  public func text() -> String {
    guard hasFiguresInRange else { return figuresInRange.text() }
    var lines: [String] = []
    let source =
      switch processStart {
      case .handover: "handed over by the launcher"
      case .operatingSystem: "from the operating system"
      case .clock: "the clock's start"
      case .unknown: "unknown: offsets count from the container"
      }
    // A prewarmed process's start is long before the user's launch: offsets count from the
    // first use of Deferred instead.
    let prewarmed =
      processStartKind == .prewarmed ? "; prewarmed, so from Deferred's first use" : ""
    let precision =
      switch processStartPrecision.nanoseconds {
      case 0: ""
      case let nanoseconds where nanoseconds < 100_000: ", ±\(nanoseconds / 1_000) µs"
      default: ", ±\(milliseconds(processStartPrecision))"
      }
    lines.append("Milestones (process start \(source)\(precision)\(prewarmed))")
    for milestone in milestones where milestone.kind != .processStart {
      lines.append(
        "  " + pad(milestone.kind.title, 16) + padLeft(milliseconds(milestone.offset), 12))
    }
    for stage in LaunchStage.allCases {
      let group = builds.filter { $0.stage == stage }.sorted {
        ($0.duration, $1.service) > ($1.duration, $0.service)
      }
      guard !group.isEmpty else { continue }
      let total = group.reduce(Duration.zero) { $0 + $1.selfDuration }
      lines.append("")
      lines.append(
        "\(stage): \(group.count) build\(group.count == 1 ? "" : "s"), \(milliseconds(total))")
      let rows = group.map { build -> [String] in
        var trigger = build.trigger.description
        if let by = build.requestedBy { trigger += " for \(by)" }
        var notes: [String] = []
        if build.outcome != .built { notes.append(build.outcome.rawValue) }
        if build.attempt > 1 { notes.append("attempt \(build.attempt)") }
        if build.generation > 0 { notes.append("generation \(build.generation)") }
        if build.waited > .zero { notes.append("others waited \(milliseconds(build.waited))") }
        if let queued = build.queued { notes.append("queued \(milliseconds(queued))") }
        return [
          build.service, milliseconds(build.duration), milliseconds(build.selfDuration),
          build.cpu.map(milliseconds) ?? "-", Self.laneName(build.thread), trigger,
          milliseconds(build.start), notes.joined(separator: ", "),
        ]
      }
      lines += table(
        header: ["service", "time", "self", "cpu", "thread", "trigger", "start", ""],
        rows: rows, rightAligned: [1, 2, 3, 6])
    }
    if !transients.isEmpty {
      lines.append("")
      lines.append("transient:")
      lines += table(
        header: ["service", "count", "total", "median", "max"],
        rows: transients.map {
          [
            $0.service, $0.timed == $0.count ? String($0.count) : "\($0.count) (\($0.timed) timed)",
            milliseconds($0.total), milliseconds($0.median),
            milliseconds($0.max),
          ]
        }, rightAligned: [1, 2, 3, 4])
    }
    if droppedRecords > 0 {
      lines.append("")
      lines.append(
        "\(droppedRecords) builds and waits not kept: the container keeps a launch's first"
          + " 4,096 builds and its latest 1,024.")
    }
    lines.append("")
    if hazards.isEmpty {
      lines.append("No hazards.")
    } else {
      lines.append("Hazards:")
      for hazard in hazards { lines.append("  ! \(hazard.detail)") }
    }
    // The items `Advice.worthShowing(_:)` keeps, as the demo's `advise` prints them.
    let shown = Advice.worthShowing(advice)
    if !shown.isEmpty {
      lines.append("")
      let left = advice.count - shown.count
      lines.append(
        "Advice (estimated savings\(left == 0 ? "" : "; \(left) saving 0.1 ms or less left out")):")
      for item in shown {
        let change = item.suggestion.map { " → \($0)" } ?? ""
        lines.append(
          "  * \(item.kind.rawValue) \(item.service)\(change): saves \(milliseconds(item.saving))"
            + " (\(item.effect.title))")
        lines.append("    \(item.detail)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The rows as lines: each column as wide as its widest cell, two spaces apart, without
  /// trailing spaces. Each cell is measured once and copied once: the time is linear in the
  /// cells' lengths, however long one is.
  private func table(header: [String], rows: [[String]], rightAligned: Set<Int>) -> [String] {
    let all = [header] + rows
    let counts = all.map { row in row.map(\.count) }
    var widths = [Int](repeating: 0, count: header.count)
    for row in counts {
      for (column, count) in row.enumerated() { widths[column] = max(widths[column], count) }
    }
    return zip(all, counts).map { row, counts in
      var line = "  "
      for column in row.indices {
        if column > 0 { line += "  " }
        let padding = String(repeating: " ", count: widths[column] - counts[column])
        if rightAligned.contains(column) {
          line += padding
          line += row[column]
        } else {
          line += row[column]
          line += padding
        }
      }
      // Trailing spaces are ASCII: cut them off by their bytes, from the end.
      let utf8 = line.utf8
      var end = utf8.endIndex
      while end > utf8.index(utf8.startIndex, offsetBy: 2),
        utf8[utf8.index(before: end)] == UInt8(ascii: " ")
      {
        end = utf8.index(before: end)
      }
      return String(line[..<end])
    }
  }

  private func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }

  private func padLeft(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }
}
