/// What past launches cost, service by service: a bounded window of the most recent launches.
///
/// An app launches thousands of times; one ``LaunchReport`` tells about one of them. A history
/// remembers each service's cost over the last ``window`` launches, so that the next launch can
/// run first the background builds on its longest remaining path, and its report can name the
/// services that got slower.
///
/// ```swift
/// let history = LaunchHistory()
/// let container = Container(history: history)
/// ```
public final class LaunchHistory: Sendable {
  /// What one launch cost one service.
  public struct Cost: Sendable, Hashable, Codable {
    /// The build's own time, without the dependencies it waited for.
    public var selfTime: Duration
    /// The CPU time its thread spent, where it was recorded.
    public var cpu: Duration?
    /// How the build ended.
    public var outcome: BuildRecord.Outcome

    /// Creates a cost.
    ///
    /// - Parameters:
    ///   - selfTime: The build's own time.
    ///   - cpu: The CPU time its thread spent, if recorded.
    ///   - outcome: How the build ended.
    public init(selfTime: Duration, cpu: Duration? = nil, outcome: BuildRecord.Outcome = .built) {
      self.selfTime = selfTime
      self.cpu = cpu
      self.outcome = outcome
    }
  }

  /// The remembered launches, as plain values.
  struct Snapshot: Sendable, Hashable {
    /// Each service's costs, oldest first, at most ``LaunchHistory/window`` of them.
    var services: [String: [Cost]] = [:]
    /// Each milestone's offset from the process start, oldest first.
    var milestones: [Milestone.Kind: [Duration]] = [:]
    /// How many launches were recorded.
    var launches = 0
  }

  /// How many launches are remembered per service.
  public let window: Int
  private let state: Locked<Snapshot>

  /// Creates an empty history kept in memory.
  ///
  /// - Parameter window: How many launches to remember per service; at least 1, 20 by default.
  public init(window: Int = 20) {
    self.window = max(1, window)
    self.state = Locked(Snapshot())
  }

  /// How many launches were recorded.
  public var launchCount: Int { state.withLock { $0.launches } }

  /// The costs remembered for `service` (named as in ``BuildRecord/service``), oldest first.
  ///
  /// - Parameter service: The service's name.
  /// - Returns: At most ``window`` costs.
  public func costs(of service: String) -> [Cost] {
    state.withLock { $0.services[service] ?? [] }
  }

  /// The median self time of `service`'s successful builds over the window, or `nil` if none
  /// was remembered.
  ///
  /// - Parameter service: The service's name, as in ``BuildRecord/service``.
  /// - Returns: The median, the lower of the two middle values for an even count.
  public func typicalSelfTime(of service: String) -> Duration? {
    median(costs(of: service).lazy.filter { $0.outcome == .built }.map(\.selfTime))
  }

  /// The median offset of `milestone` over the window, or `nil` if none was remembered.
  ///
  /// - Parameter milestone: The milestone.
  /// - Returns: The median.
  public func typicalOffset(of milestone: Milestone.Kind) -> Duration? {
    median(state.withLock { $0.milestones[milestone] ?? [] })
  }

  /// Adds a launch's costs: each service's last build in `report`, and its milestones.
  ///
  /// - Parameter report: The launch's report, best made once it is fully ready.
  public func record(_ report: LaunchReport) {
    var last: [String: Cost] = [:]
    for build in report.builds {
      last[build.service] = Cost(
        selfTime: build.selfDuration, cpu: build.cpu, outcome: build.outcome)
    }
    let window = window
    state.withLock { snapshot in
      snapshot.launches += 1
      for (service, cost) in last {
        snapshot.services[service, default: []].append(cost)
        let excess = snapshot.services[service, default: []].count - window
        if excess > 0 { snapshot.services[service]?.removeFirst(excess) }
      }
      for milestone in report.milestones where milestone.kind != .processStart {
        snapshot.milestones[milestone.kind, default: []].append(milestone.offset)
        let excess = snapshot.milestones[milestone.kind, default: []].count - window
        if excess > 0 { snapshot.milestones[milestone.kind]?.removeFirst(excess) }
      }
    }
  }

  private func median(_ values: some Sequence<Duration>) -> Duration? {
    let sorted = values.sorted()
    return sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
  }
}
