import Deferred
import DeferredReports

/// Launches of both modes, each in a fresh process, and their times to the first frame and to
/// full readiness, counted from each process's spawn.
public struct Comparison: Sendable, Hashable {
  /// One launch's times, from its spawn.
  public struct Sample: Sendable, Hashable {
    /// When the first frame was on screen.
    public let firstFrame: Duration
    /// When every scheduled service was built.
    public let fullyReady: Duration
    /// Deferred's own time in `launch()`, in nanoseconds a service it built: the launch's
    /// duration less its factories' own time, over the services built.
    public let launchOverhead: Double
    /// The time from the first frame to full readiness over its ideal bound
    /// (``LaunchReport/idealBackgroundBound(cores:)``); `nil` with no work after the first
    /// frame.
    public let boundRatio: Double?

    /// Creates a sample.
    ///
    /// - Parameters:
    ///   - firstFrame: When the first frame was on screen.
    ///   - fullyReady: When every scheduled service was built.
    ///   - launchOverhead: Deferred's own time in `launch()`, in nanoseconds a service.
    ///   - boundRatio: The work after the first frame over its ideal bound.
    public init(
      firstFrame: Duration, fullyReady: Duration, launchOverhead: Double,
      boundRatio: Double? = nil
    ) {
      self.firstFrame = firstFrame
      self.fullyReady = fullyReady
      self.launchOverhead = launchOverhead
      self.boundRatio = boundRatio
    }

    /// Reads the times from a child's JSON launch report.
    ///
    /// - Parameters:
    ///   - json: What the child printed.
    ///   - workers: How many deferred builds the child ran at once, for the ideal bound.
    /// - Throws: ``DemoError`` if it is not a report with both milestones.
    public init(report json: String, workers: Int = 1) throws(DemoError) {
      let report: LaunchReport
      do {
        report = try LaunchReport(json: json)
      } catch {
        throw DemoError("the child's report is not readable: \(error)")
      }
      guard let firstFrame = report.offset(of: .firstFrame),
        let fullyReady = report.offset(of: .fullyReady),
        let overhead = Self.launchOverhead(of: report)
      else {
        throw DemoError("the child's report has no launch, first frame or full readiness")
      }
      self.init(
        firstFrame: firstFrame, fullyReady: fullyReady, launchOverhead: overhead,
        boundRatio: report.idealBackgroundBound(cores: workers)?.ratio)
    }

    /// Deferred's own time in `launch()` per service it built, in nanoseconds: the time from
    /// `launch began` to `critical ready`, less the factories' own (self) time.
    public static func launchOverhead(of report: LaunchReport) -> Double? {
      guard let began = report.offset(of: .launchBegan),
        let ready = report.offset(of: .criticalReady)
      else { return nil }
      let builds = report.builds.filter { $0.trigger == .launch }
      guard !builds.isEmpty else { return nil }
      let factories = builds.reduce(Duration.zero) { $0 + $1.selfDuration }
      return (ready - began - factories) / .nanoseconds(1) / Double(builds.count)
    }
  }

  /// Runs one child launch in `mode` (the `index`th of that mode) and returns what it printed:
  /// its JSON report.
  public typealias ChildRunner =
    @Sendable (_ mode: LaunchMode, _ index: Int) throws(DemoError)
    -> String

  /// Launches per mode.
  public let runs: Int
  /// The work's scale factor the children ran with.
  public let slowdown: Double
  /// Each mode's launches, in the order they ran.
  public let samples: [LaunchMode: [Sample]]
  /// How many deferred builds the children ran at once.
  public let workers: Int

  /// Creates a comparison from samples.
  ///
  /// - Parameters:
  ///   - runs: Launches per mode.
  ///   - slowdown: The work's scale factor.
  ///   - samples: Each mode's launches.
  ///   - workers: How many deferred builds the children ran at once.
  public init(runs: Int, slowdown: Double, samples: [LaunchMode: [Sample]], workers: Int = 1) {
    self.runs = runs
    self.slowdown = slowdown
    self.samples = samples
    self.workers = workers
  }

  /// Runs `runs` launches of each mode, interleaved (eager, deferred, eager, …), so that
  /// whatever else the machine does falls on both alike.
  ///
  /// - Parameters:
  ///   - runs: Launches per mode.
  ///   - slowdown: The work's scale factor, for the record.
  ///   - workers: How many deferred builds the children run at once, for the ideal bound.
  ///   - child: Runs one launch and returns its JSON report.
  ///   - progress: Told before each launch: its number from 1, the total, and its mode.
  /// - Returns: The comparison.
  /// - Throws: ``DemoError`` if a child fails or its report is unreadable.
  public static func measure(
    runs: Int, slowdown: Double = 1, workers: Int = 1, child: ChildRunner,
    progress: (_ done: Int, _ total: Int, _ mode: LaunchMode) -> Void = { _, _, _ in }
  ) throws(DemoError) -> Comparison {
    var samples: [LaunchMode: [Sample]] = [:]
    var done = 0
    for index in 0..<runs {
      for mode in LaunchMode.allCases {
        done += 1
        progress(done, runs * LaunchMode.allCases.count, mode)
        samples[mode, default: []].append(
          try Sample(report: try child(mode, index), workers: workers))
      }
    }
    return Comparison(runs: runs, slowdown: slowdown, samples: samples, workers: workers)
  }

  /// The statistics of one mode's times to the first frame, in milliseconds.
  public func firstFrame(_ mode: LaunchMode) -> Statistics {
    Statistics(samples[mode, default: []].map { $0.firstFrame / .milliseconds(1) })
  }

  /// The statistics of one mode's times to full readiness, in milliseconds.
  public func fullyReady(_ mode: LaunchMode) -> Statistics {
    Statistics(samples[mode, default: []].map { $0.fullyReady / .milliseconds(1) })
  }

  /// The statistics of Deferred's own time in one mode's `launch()`, in microseconds a
  /// service built.
  public func launchOverhead(_ mode: LaunchMode) -> Statistics {
    Statistics(samples[mode, default: []].map { $0.launchOverhead / 1e3 })
  }

  /// The statistics of one mode's work after the first frame over its ideal bound, over the
  /// launches that had such work; `nil` if none had.
  public func boundRatio(_ mode: LaunchMode) -> Statistics? {
    let ratios = samples[mode, default: []].compactMap(\.boundRatio)
    return ratios.isEmpty ? nil : Statistics(ratios)
  }

  /// The comparison as one JSON object:
  ///
  /// ```json
  /// {"runs": 10, "slowdown": 1, "modes": {
  ///   "eager": {"firstFrameMs": {"median": 251.2, "p95": 262.0},
  ///             "fullyReadyMs": {"median": 251.3, "p95": 262.1},
  ///             "launchOverheadUs": {"median": 1.8, "p95": 2.5},
  ///             "boundRatio": null,
  ///             "samples": [{"firstFrameMs": 250.1, "fullyReadyMs": 250.2,
  ///                          "launchOverheadUs": 1.7}, ...]},
  ///   "deferred": {..., "boundRatio": {"median": 1.2, "p95": 1.4}, ...}}}
  /// ```
  ///
  /// `boundRatio` is the time from the first frame to full readiness over its ideal bound,
  /// `max(critical path, work / workers)`: `null` for a mode with no work after it.
  public func json() -> String {
    func ms(_ value: Double) -> String { Format.decimal(value, places: 3) }
    func stats(_ value: Statistics) -> String {
      "{\"median\": \(ms(value.median)), \"p95\": \(ms(value.p95))}"
    }
    let modes = LaunchMode.allCases.map { mode in
      let runs = samples[mode, default: []].map {
        "{\"firstFrameMs\": \(ms($0.firstFrame / .milliseconds(1))),"
          + " \"fullyReadyMs\": \(ms($0.fullyReady / .milliseconds(1))),"
          + " \"launchOverheadUs\": \(ms($0.launchOverhead / 1e3))}"
      }
      return "\"\(mode)\": {\"firstFrameMs\": \(stats(firstFrame(mode))),"
        + " \"fullyReadyMs\": \(stats(fullyReady(mode))),"
        + " \"launchOverheadUs\": \(stats(launchOverhead(mode))),"
        + " \"boundRatio\": \(boundRatio(mode).map(stats) ?? "null"),"
        + " \"samples\": [\(runs.joined(separator: ", "))]}"
    }
    return "{\"runs\": \(runs), \"slowdown\": \(Format.decimal(slowdown, places: 2)),"
      + " \"modes\": {\(modes.joined(separator: ", "))}}\n"
  }

  /// How many times sooner a time is than another, as read at a glance: `37× sooner`, or
  /// `1.25× later` when it is not sooner.
  ///
  /// - Parameters:
  ///   - time: The time, in any unit.
  ///   - other: The time it is compared with, in the same unit.
  /// - Returns: The ratio in words.
  public static func sooner(_ time: Double, than other: Double) -> String {
    guard time > 0, other > 0 else { return "-" }
    func times(_ ratio: Double) -> String {
      Format.decimal(ratio, places: ratio >= 10 ? 0 : ratio >= 2 ? 1 : 2) + "×"
    }
    return time <= other ? times(other / time) + " sooner" : times(time / other) + " later"
  }

  /// The comparison as a table: each mode's median and 95th percentile, and the ratios of the
  /// medians.
  public func table() -> String {
    func cell(_ text: String) -> String { Format.right(text, 9) }
    func ms(_ value: Double) -> String { cell(Format.decimal(value, places: 1)) }
    let label = 18
    let work = slowdown == 1 ? "" : ", work ×\(Format.decimal(slowdown, places: 2))"
    var lines = [
      "\(runs) launch\(runs == 1 ? "" : "es") per mode, each in a fresh process, interleaved,"
        + " timed from its spawn (pre-main included)\(work)",
      "",
      Format.left("", label) + Format.right("first frame (ms)", 18) + "   "
        + Format.right("fully ready (ms)", 18),
      Format.left("mode", label) + cell("median") + cell("p95") + "   " + cell("median")
        + cell("p95"),
    ]
    for mode in LaunchMode.allCases {
      let first = firstFrame(mode)
      let ready = fullyReady(mode)
      lines.append(
        Format.left(mode.rawValue, label) + ms(first.median) + ms(first.p95) + "   "
          + ms(ready.median) + ms(ready.p95))
    }
    lines.append(
      Format.left("deferred, medians", label)
        + Format.right(
          Self.sooner(firstFrame(.deferred).median, than: firstFrame(.eager).median), 18)
        + "   "
        + Format.right(
          Self.sooner(fullyReady(.deferred).median, than: fullyReady(.eager).median), 18))
    lines.append("")
    for mode in LaunchMode.allCases {
      let overhead = launchOverhead(mode)
      lines.append(
        "Deferred's own time in the \(mode) launch(): median "
          + "\(Format.decimal(overhead.median, places: 2)) µs, p95 "
          + "\(Format.decimal(overhead.p95, places: 2)) µs a service built"
          + " (launch time less the factories' own)")
    }
    if let ratio = boundRatio(.deferred) {
      lines.append(
        "The deferred app's work after its first frame took \(Format.decimal(ratio.median, places: 2))×"
          + " its ideal bound, max(critical path, work / \(workers)), at the median"
          + " (p95 \(Format.decimal(ratio.p95, places: 2))×); `history` shows it launch by launch")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
