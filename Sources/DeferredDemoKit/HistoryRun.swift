import Deferred
import DeferredReports

/// `history`: launches of the deferred app that share a launch history, each with the ideal
/// bound of its work after the first frame and the order its background builds started in, so
/// that the first launch (no history: registration order) can be set beside the later ones
/// (the longest remaining path first).
public struct HistoryRun: Sendable {
  /// One launch.
  public struct Launch: Sendable {
    /// The launch's report.
    public let report: LaunchReport
    /// How many launches the history remembered before it.
    public let remembered: Int
    /// The services whose work it scaled further (``Workload/slowed``).
    public let slowed: [String: Double]
    /// What its work after the first frame took beside the least it could have taken.
    public let bound: BackgroundBound?

    /// Creates a launch, its bound worked out from its report.
    ///
    /// - Parameters:
    ///   - report: The launch's report.
    ///   - remembered: How many launches the history remembered before it.
    ///   - slowed: The services whose work it scaled further.
    ///   - workers: How many deferred builds ran at once.
    public init(
      report: LaunchReport, remembered: Int, slowed: [String: Double] = [:], workers: Int
    ) {
      self.report = report
      self.remembered = remembered
      self.slowed = slowed
      self.bound = report.idealBackgroundBound(cores: workers)
    }

    /// The synchronous builds the schedule ordered: scheduled after the first frame, on a
    /// worker thread (not the main-thread lane, not async builds, which take no worker), in
    /// the order they started.
    public var backgroundOrder: [String] {
      guard let firstFrame = report.offset(of: .firstFrame) else { return [] }
      return report.builds.filter {
        $0.start >= firstFrame && $0.trigger == .scheduled && !$0.isMainThread
          && $0.thread != "task"
      }.map(\.service)
    }

    /// The regressions the history found, and its own problems, as hazards.
    public var historyHazards: [Hazard] {
      report.hazards.filter {
        [.regression, .milestoneRegression, .historyUnreadable, .historyUnwritable].contains(
          $0.kind)
      }
    }
  }

  /// Runs the launch numbered `index` (from 0), with `slowed` services, and returns its
  /// report.
  public typealias Launcher =
    (_ index: Int, _ slowed: [String: Double]) throws(DemoError) -> LaunchReport

  /// The launches, in order.
  public let launches: [Launch]
  /// How many deferred builds ran at once.
  public let workers: Int

  /// Creates a run from its launches.
  ///
  /// - Parameters:
  ///   - launches: The launches, in order.
  ///   - workers: How many deferred builds ran at once.
  public init(launches: [Launch], workers: Int) {
    self.launches = launches
    self.workers = workers
  }

  /// Runs `runs` launches one after another; the last one with `slowed` services.
  ///
  /// - Parameters:
  ///   - runs: How many launches.
  ///   - workers: How many deferred builds run at once in each.
  ///   - slowed: The services the last launch slows, by factor.
  ///   - remembered: How many launches the history holds now.
  ///   - launch: Runs one launch and returns its report.
  /// - Returns: The run.
  /// - Throws: What `launch` throws.
  public static func measure(
    runs: Int, workers: Int, slowed: [String: Double] = [:], remembered: () -> Int,
    launch: Launcher
  ) throws(DemoError) -> HistoryRun {
    var launches: [Launch] = []
    for index in 0..<runs {
      let before = remembered()
      let slow = index == runs - 1 ? slowed : [:]
      let report = try launch(index, slow)
      launches.append(
        Launch(report: report, remembered: before, slowed: slow, workers: workers))
    }
    return HistoryRun(launches: launches, workers: workers)
  }

  /// Each launch in a few lines, and what to see in them.
  public func text() -> String {
    func ms(_ value: Duration?) -> String {
      value.map { Format.milliseconds($0, places: 1) } ?? "-"
    }
    var lines = [
      "\(launches.count) launch\(launches.count == 1 ? "" : "es") of the deferred app, each in a"
        + " fresh process, \(workers) deferred build\(workers == 1 ? "" : "s") at once,"
        + " sharing a launch history on disk",
      "ideal bound: the least the work after the first frame could take,"
        + " max(critical path, work / \(workers)), from the launch's own build times",
    ]
    for (number, launch) in zip(1..., launches) {
      let report = launch.report
      let slowed = launch.slowed.sorted { $0.key < $1.key }.map {
        ", \($0.key) slowed ×\(Format.decimal($0.value, places: 2))"
      }.joined()
      let order =
        launch.remembered == 0
        ? "no history: registration order"
        : "history of \(launch.remembered) launch\(launch.remembered == 1 ? "" : "es"):"
          + " longest path first"
      lines.append("")
      lines.append("launch \(number) (\(order)\(slowed))")
      lines.append(
        "  first frame \(ms(report.offset(of: .firstFrame))), fully ready"
          + " \(ms(report.offset(of: .fullyReady)))")
      if let bound = launch.bound {
        let ratio = bound.ratio.map { Format.decimal($0, places: 2) + "×" } ?? "-"
        lines.append(
          "  after the first frame \(ms(bound.took)); ideal bound \(ms(bound.bound))"
            + " = max(critical path \(ms(bound.criticalPath)),"
            + " work \(ms(bound.work)) / \(bound.cores)); over the bound \(ratio)")
        if bound.chain.count > 0 {
          lines.append("  critical path: \(bound.chain.joined(separator: " → "))")
        }
      }
      lines.append("  background order: \(launch.backgroundOrder.joined(separator: ", "))")
      let hazards = launch.historyHazards
      if hazards.isEmpty {
        lines.append(
          "  regressions: none"
            + (launch.remembered < 3 ? " (the history compares from 3 launches on)" : ""))
      } else {
        for hazard in hazards { lines.append("  ! \(hazard.detail)") }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
