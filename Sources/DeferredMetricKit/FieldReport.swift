import Deferred
import DeferredHistory

/// What the field says about the launch: one or several days' MetricKit payloads, in counts
/// and percentiles, joined by service name to a `LaunchReport` of this device.
///
/// The launch histograms (time to first draw, optimized, resume, extended launch) come from
/// every payload; the launch phases and the services come from the signposts that
/// ``FieldMeasurement`` emits (``FieldSignposts``). A service's field duration is its build's
/// interval, from its claim to its end, so it is joined to the local build's inclusive
/// `duration`.
///
/// ```swift
/// let payloads = try FieldPayload.read(uploaded)
/// let field = FieldReport(payloads: payloads, local: container.launchReport())
/// print(field.text())
/// for growth in field.grown { print(growth) }  // "SyncService: 12.0 ms → 18.5 ms"
/// ```
public struct FieldReport: Sendable, Hashable {
  /// How many samples, and the median and 90th percentile, of one measure.
  public struct Stats: Sendable, Hashable {
    /// How many samples.
    public var count: Int
    /// The median.
    public var p50: Duration?
    /// The 90th percentile.
    public var p90: Duration?

    /// The stats of `histogram`.
    ///
    /// - Parameter histogram: The samples.
    public init(_ histogram: FieldHistogram) {
      count = histogram.count
      p50 = histogram.p50
      p90 = histogram.p90
    }
  }

  /// One service: the field's durations of its build, and this device's.
  public struct Service: Sendable, Hashable {
    /// The service, as `BuildRecord.service` names it.
    public var name: String
    /// The field's durations, if the payloads have any.
    public var field: Stats?
    /// This device's last successful build of it (its inclusive duration), if the local
    /// report has one.
    public var local: Duration?
  }

  /// A service whose field median grew between the first payload that has it and the last one.
  public struct Growth: Sendable, Hashable, CustomStringConvertible {
    /// The service.
    public var service: String
    /// Its median in the first payload that has it.
    public var before: Duration
    /// Its median in the last one.
    public var after: Duration
    /// The first payload's day (its `timeStampEnd`), if it says.
    public var from: String?
    /// The last payload's day.
    public var to: String?

    /// `SyncService: 12.0 ms → 18.5 ms (+54%)`.
    public var description: String {
      "\(service): \(FieldFormat.milliseconds(before)) → \(FieldFormat.milliseconds(after))"
        + " (\(FieldFormat.change(from: before, to: after)))"
    }
  }

  /// How many payloads were read.
  public var payloadCount: Int
  /// The days the payloads cover, as their `timeStampEnd`, in the order given.
  public var days: [String]
  /// The launch histograms, every payload's together.
  public var launch: [FieldLaunchMetric: FieldHistogram]
  /// The launch phases, every payload's together.
  public var phases: [FieldSignposts.Name: FieldHistogram]
  /// Each service's build durations, every payload's together.
  public var services: [String: FieldHistogram]
  /// How many signpost metrics of other categories were left out.
  public var foreignSignposts: Int
  /// This device's launch, if one was given to join.
  public var local: LaunchReport?
  /// The services whose field median grew between payloads by more than the threshold, by
  /// name.
  public var grown: [Growth]

  /// Reads `payloads` (oldest first) and joins them to `local`.
  ///
  /// - Parameters:
  ///   - payloads: The payloads, oldest first; none makes an empty report.
  ///   - local: This device's launch report, to join by service name.
  ///   - threshold: How much a service's median must grow between the first payload that has
  ///     it and the last for ``grown`` to name it: by more than both its relative and its
  ///     absolute part (its `minimumLaunches` is not used).
  public init(
    payloads: [FieldPayload], local: LaunchReport? = nil,
    threshold: RegressionThreshold = RegressionThreshold()
  ) {
    payloadCount = payloads.count
    days = payloads.compactMap(\.end)
    var launch: [FieldLaunchMetric: FieldHistogram] = [:]
    var phases: [FieldSignposts.Name: FieldHistogram] = [:]
    var services: [String: FieldHistogram] = [:]
    var first: [String: (FieldHistogram, String?)] = [:]
    var last: [String: (FieldHistogram, String?)] = [:]
    var foreign = 0
    for payload in payloads {
      for (metric, histogram) in payload.launch {
        launch[metric] = launch[metric, default: FieldHistogram()].merging(histogram)
      }
      for (phase, histogram) in payload.phases {
        phases[phase] = phases[phase, default: FieldHistogram()].merging(histogram)
      }
      for (service, histogram) in payload.services {
        services[service] = services[service, default: FieldHistogram()].merging(histogram)
        guard !histogram.isEmpty else { continue }
        if first[service] == nil { first[service] = (histogram, payload.end) }
        last[service] = (histogram, payload.end)
      }
      foreign += payload.foreignSignposts
    }
    var grown: [Growth] = []
    if payloads.count > 1 {
      for (service, (before, from)) in first {
        guard let (after, to) = last[service], let was = before.p50, let now = after.p50,
          threshold.isRegression(now, from: was)
        else { continue }
        grown.append(Growth(service: service, before: was, after: now, from: from, to: to))
      }
    }
    self.launch = launch
    self.phases = phases
    self.services = services
    self.foreignSignposts = foreign
    self.local = local
    self.grown = grown.sorted { $0.service < $1.service }
  }

  /// Whether the payloads said nothing Deferred reads.
  public var isEmpty: Bool {
    launch.values.allSatisfy(\.isEmpty) && phases.values.allSatisfy(\.isEmpty)
      && services.values.allSatisfy(\.isEmpty)
  }

  /// Every service the field or this device knows, by name: the join.
  public var joined: [Service] {
    var localDurations: [String: Duration] = [:]
    for build in local?.builds ?? [] where build.outcome == .built {
      localDurations[build.service] = build.duration
    }
    let names = Set(services.keys).union(localDurations.keys)
    return names.sorted().map { name in
      Service(
        name: name, field: services[name].map(Stats.init), local: localDurations[name])
    }
  }

  /// Each service's median in the field: what ``seed(_:onlyIfEmpty:)`` gives the history.
  public var medians: [String: Duration] {
    services.compactMapValues(\.p50)
  }

  /// This device's time for `metric`, from the local report's milestones: the first frame for
  /// the times to first draw, full readiness for the extended launch; `nil` for resume.
  func localTime(of metric: FieldLaunchMetric) -> Duration? {
    switch metric {
    case .timeToFirstDraw, .optimizedTimeToFirstDraw: local?.offset(of: .firstFrame)
    case .extendedLaunch: local?.offset(of: .fullyReady)
    case .resume: nil
    }
  }

  /// This device's time for `phase`, from the local report's milestones.
  func localTime(of phase: FieldSignposts.Name) -> Duration? {
    func between(_ from: Milestone.Kind, _ to: Milestone.Kind) -> Duration? {
      guard let start = local?.offset(of: from), let end = local?.offset(of: to) else {
        return nil
      }
      return end - start
    }
    switch phase {
    case .launchToFirstFrame: return between(.launchBegan, .firstFrame)
    case .firstFrameToFullyReady: return between(.firstFrame, .fullyReady)
    case .build: return nil
    }
  }
}
