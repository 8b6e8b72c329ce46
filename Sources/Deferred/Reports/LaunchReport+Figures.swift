extension Duration {
  /// The most a report's figure (and its JSON) holds: `Int64.max` nanoseconds.
  static let reportCeiling = Duration.nanoseconds(Int64.max)

  /// The duration as a report's figure: whole nanoseconds from zero to ``reportCeiling``.
  var reportFigure: Duration { Duration(nanoseconds: nanoseconds) }

  /// Whether the duration is a report's figure already.
  var isReportFigure: Bool { self >= .zero && self <= Self.reportCeiling && self == reportFigure }
}

extension Priority {
  /// The priority with its idle delays as a report's figures.
  var reportFigure: Priority {
    switch kind {
    case .idle(let delay): .idle(after: delay.duration.reportFigure)
    case .when(let condition):
      .when(
        condition.branches.flag, condition.branches.then.reportFigure,
        otherwise: condition.branches.otherwise.reportFigure)
    default: self
    }
  }
}

extension LaunchReport {
  /// Whether every figure is a report's figure, as in any report read from JSON. The
  /// renderings bring a report made by hand into range first (``figuresInRange``), so that
  /// their sums and offsets never overflow.
  package var hasFiguresInRange: Bool {
    func ok(_ duration: Duration?) -> Bool { duration?.isReportFigure ?? true }
    func ok(_ priority: Priority?) -> Bool { priority.map { $0.reportFigure == $0 } ?? true }
    return ok(processStartPrecision) && milestones.allSatisfy { ok($0.offset) }
      && builds.allSatisfy {
        ok($0.queued) && ok($0.start) && ok($0.duration) && ok($0.selfDuration) && ok($0.cpu)
          && ok($0.waited) && ok($0.priority)
      }
      && transients.allSatisfy { ok($0.total) && ok($0.median) && ok($0.max) }
      && hazards.allSatisfy { ok($0.duration) && ok($0.baseline) }
      && advice.allSatisfy {
        ok($0.saving) && ok($0.cost) && ok($0.priority) && ok($0.suggestion)
      }
  }

  /// The report with every duration clamped to a report's figure (0 to `Int64.max` ns).
  package var figuresInRange: LaunchReport {
    var report = self
    report.processStartPrecision = processStartPrecision.reportFigure
    for index in report.milestones.indices {
      report.milestones[index].offset = milestones[index].offset.reportFigure
    }
    for index in report.builds.indices {
      let build = builds[index]
      report.builds[index].queued = build.queued?.reportFigure
      report.builds[index].start = build.start.reportFigure
      report.builds[index].duration = build.duration.reportFigure
      report.builds[index].selfDuration = build.selfDuration.reportFigure
      report.builds[index].cpu = build.cpu?.reportFigure
      report.builds[index].waited = build.waited.reportFigure
      report.builds[index].priority = build.priority.reportFigure
    }
    for index in report.transients.indices {
      let transient = transients[index]
      report.transients[index].total = transient.total.reportFigure
      report.transients[index].median = transient.median.reportFigure
      report.transients[index].max = transient.max.reportFigure
    }
    for index in report.hazards.indices {
      report.hazards[index].duration = hazards[index].duration?.reportFigure
      report.hazards[index].baseline = hazards[index].baseline?.reportFigure
    }
    report.advice = advice.map(\.figuresInRange)
    return report
  }
}

extension Advice {
  /// The advice with its durations as a report's figures.
  package var figuresInRange: Advice {
    var advice = self
    advice.saving = saving.reportFigure
    advice.cost = cost?.reportFigure
    advice.priority = priority?.reportFigure
    advice.suggestion = suggestion?.reportFigure
    return advice
  }
}
