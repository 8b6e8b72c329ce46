import Deferred

/// How much slower than usual a service, the first frame or full readiness must be to be named
/// a regression: by more than ``relative`` of its median *and* by more than ``absolute``.
///
/// Both must be exceeded: a 2 µs service that took 4 µs is 100% slower but harmless, and a
/// 400 ms first frame 3 ms later is within noise.
///
/// ```swift
/// let history = LaunchHistory(
///   directory: caches,
///   regressionThreshold: RegressionThreshold(relative: 0.25, absolute: .milliseconds(2)))
/// ```
public struct RegressionThreshold: Sendable, Hashable {
  /// How much slower, as a share of the median: 0.25 is 25% slower.
  public var relative: Double
  /// How much slower, as a time.
  public var absolute: Duration
  /// How many earlier launches must have recorded it before a median is trusted.
  public var minimumLaunches: Int

  /// Creates a threshold.
  ///
  /// - Parameters:
  ///   - relative: How much slower, as a share of the median; 25% by default.
  ///   - absolute: How much slower, as a time; 2 ms by default.
  ///   - minimumLaunches: How many earlier launches a median needs; 3 by default, at least 1.
  public init(
    relative: Double = 0.25, absolute: Duration = .milliseconds(2), minimumLaunches: Int = 3
  ) {
    self.relative = relative
    self.absolute = absolute
    self.minimumLaunches = max(1, minimumLaunches)
  }

  /// Whether `time` is a regression from `median`: slower by more than both limits.
  ///
  /// - Parameters:
  ///   - time: This launch's time.
  ///   - median: The median of the launches before.
  /// - Returns: `true` if both limits are exceeded.
  public func isRegression(_ time: Duration, from median: Duration) -> Bool {
    let slower = time - median
    guard slower > absolute else { return false }
    return median <= .zero || slower / median > relative
  }
}

extension LaunchHistory {
  /// The regressions of `report` against this history as it is: the services whose last build
  /// in it was slower than their median, and the first frame and full readiness if later than
  /// theirs, by more than ``regressionThreshold``.
  ///
  /// A container's `Container.launchReport(criticalShareLimit:)` includes them already,
  /// compared with the history as it was before the container recorded its launch; this is
  /// for a report made elsewhere (read from JSON, say).
  ///
  /// - Parameter report: The launch to compare.
  /// - Returns: `Hazard.Kind.regression` and `Hazard.Kind.milestoneRegression` hazards,
  ///   services by name, then the milestones.
  public func regressions(in report: LaunchReport) -> [Hazard] {
    regressions(builds: report.builds, milestones: report.milestones, against: baseline(for: nil))
  }

  /// The regressions of a launch's builds and milestones against `baseline`.
  func regressions(builds: [BuildRecord], milestones: [Milestone], against baseline: Snapshot)
    -> [Hazard]
  {
    let threshold = regressionThreshold
    var last: [String: BuildRecord] = [:]
    for build in builds { last[build.service] = build }
    var hazards: [Hazard] = []
    for (service, build) in last.sorted(by: { $0.key < $1.key }) where build.outcome == .built {
      let earlier = (baseline.services[service] ?? []).filter { $0.outcome == .built }
      guard earlier.count >= threshold.minimumLaunches,
        let median = Self.median(earlier.map(\.selfTime)),
        threshold.isRegression(build.selfDuration, from: median)
      else { continue }
      hazards.append(
        Hazard(
          kind: .regression, service: service,
          detail: "\(service) took \(milliseconds(build.selfDuration)), against a median of"
            + " \(milliseconds(median)) over the \(earlier.count) launches before"
            + " (\(Self.change(build.selfDuration, from: median))).",
          duration: build.selfDuration, baseline: median))
    }
    for kind in [Milestone.Kind.firstFrame, .fullyReady] {
      let earlier = baseline.milestones[kind] ?? []
      guard earlier.count >= threshold.minimumLaunches,
        let offset = milestones.first(where: { $0.kind == kind })?.offset,
        let median = Self.median(earlier), threshold.isRegression(offset, from: median)
      else { continue }
      hazards.append(
        Hazard(
          kind: .milestoneRegression, service: kind.rawValue,
          detail: "The \(kind.title) came at \(milliseconds(offset)), against a median of"
            + " \(milliseconds(median)) over the \(earlier.count) launches before"
            + " (\(Self.change(offset, from: median))).",
          duration: offset, baseline: median))
    }
    return hazards
  }

  /// `+3.00 ms, +150%`.
  private static func change(_ time: Duration, from median: Duration) -> String {
    let slower = "+\(milliseconds(time - median))"
    guard median > .zero else { return slower }
    return slower + ", +\(Int((((time - median) / median) * 100).rounded()))%"
  }
}
