import Deferred

/// What past launches cost, service by service: a bounded window of the most recent launches.
///
/// An app launches thousands of times; one `LaunchReport` tells about one of them. A history
/// remembers each service's cost over the last ``window`` launches, so that the next launch can
/// run first the background builds on its longest remaining path, and its report can name the
/// services that got slower.
///
/// ```swift
/// let history = LaunchHistory(directory: cachesDirectory)
/// let container = Container(history: history)
/// ```
///
/// A history made with a directory (or any ``LaunchHistoryStorage``) lasts across launches: it
/// is read when the first frame is drawn, and the container appends each launch to it once
/// fully ready, in a background job. A file that cannot be read is ignored and replaced by the
/// next save; a directory that cannot be written keeps the launch in memory only. Either is a
/// hazard in the next `LaunchReport`, never an error or a crash.
///
/// With a history, `Container.launchReport(criticalShareLimit:)` names the services, and the
/// first frame and full readiness, that were slower than their median over the launches before
/// this one by more than ``regressionThreshold``.
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

  /// The remembered launches, as plain values; costs and offsets oldest first.
  struct Snapshot: Sendable, Hashable {
    var services: [String: [Cost]] = [:]
    var milestones: [Milestone.Kind: [Duration]] = [:]
    var launches = 0
    /// The launch (counted as ``launches`` counts) that last recorded each service.
    var lastSeen: [String: Int] = [:]

    /// Adds one launch, keeping `window` costs of each service, and forgetting the services
    /// none of the last `window` launches built.
    mutating func apply(_ entry: Entry, window: Int) {
      func keep<Value>(_ values: inout [Value], adding value: Value) {
        values.append(value)
        if values.count > window { values.removeFirst(values.count - window) }
      }
      launches += 1
      for (service, cost) in entry.services {
        keep(&services[service, default: []], adding: cost)
        lastSeen[service] = launches
      }
      for (kind, offset) in entry.milestones {
        keep(&milestones[kind, default: []], adding: offset)
      }
      if services.count > entry.services.count {
        for (service, seen) in lastSeen where launches - seen >= window {
          services[service] = nil
          lastSeen[service] = nil
        }
      }
    }
  }

  /// What one launch adds: each service's last build, and the milestones.
  struct Entry: Sendable {
    var services: [String: Cost] = [:]
    var milestones: [Milestone.Kind: Duration] = [:]

    init(_ report: LaunchReport) {
      for build in report.builds {
        services[build.service] = Cost(
          selfTime: build.selfDuration, cpu: build.cpu, outcome: build.outcome)
      }
      for milestone in report.milestones where milestone.kind != .processStart {
        milestones[milestone.kind] = milestone.offset
      }
    }
  }

  private struct State {
    var snapshot = Snapshot()
    /// Whether the storage was read (a history in memory has nothing to read).
    var loaded: Bool
    /// Launches recorded and not saved yet, oldest first.
    var pending: [Entry] = []
    var hazards: [Hazard] = []
    var lastToken = 0
    /// The history as it was before each of the last few launches recorded with a token.
    var baselines: [(token: Int, snapshot: Snapshot)] = []
  }

  /// How many launches are remembered per service.
  public let window: Int
  /// How much slower than its median a service, the first frame or full readiness must be for
  /// a report to name it a regression.
  public let regressionThreshold: RegressionThreshold
  /// Where the history is kept between launches; `nil` for a history in memory.
  public let storage: (any LaunchHistoryStorage)?
  private let state: Locked<State>
  /// Held while saving: one save at a time reads, merges and writes.
  private let saving = Locked(())

  /// Creates an empty history kept in memory.
  ///
  /// - Parameters:
  ///   - window: How many launches to remember per service; at least 1, 20 by default.
  ///   - regressionThreshold: When a launch's report names a regression.
  public init(window: Int = 20, regressionThreshold: RegressionThreshold = RegressionThreshold()) {
    self.window = max(1, window)
    self.regressionThreshold = regressionThreshold
    self.storage = nil
    self.state = Locked(State(loaded: true))
  }

  /// Creates a history kept in `storage`, read when it is first used.
  ///
  /// - Parameters:
  ///   - storage: Where to keep it.
  ///   - window: How many launches to remember per service; at least 1, 20 by default.
  ///   - regressionThreshold: When a launch's report names a regression.
  public init(
    storage: any LaunchHistoryStorage, window: Int = 20,
    regressionThreshold: RegressionThreshold = RegressionThreshold()
  ) {
    self.window = max(1, window)
    self.regressionThreshold = regressionThreshold
    self.storage = storage
    self.state = Locked(State(loaded: false))
  }

  /// Creates a history kept in a file of `directory` (``DirectoryHistoryStorage``), read when
  /// it is first used.
  ///
  /// - Parameters:
  ///   - directory: An existing directory the app may write: its caches directory, say.
  ///   - window: How many launches to remember per service; at least 1, 20 by default.
  ///   - regressionThreshold: When a launch's report names a regression.
  public convenience init(
    directory: String, window: Int = 20,
    regressionThreshold: RegressionThreshold = RegressionThreshold()
  ) {
    self.init(
      storage: DirectoryHistoryStorage(directory: directory), window: window,
      regressionThreshold: regressionThreshold)
  }

  /// How many launches were recorded.
  public var launchCount: Int { withState { $0.snapshot.launches } }

  /// The costs remembered for `service` (named as in `BuildRecord.service`), oldest first.
  ///
  /// - Parameter service: The service's name.
  /// - Returns: At most ``window`` costs.
  public func costs(of service: String) -> [Cost] {
    withState { $0.snapshot.services[service] ?? [] }
  }

  /// The median self time of `service`'s successful builds over the window, or `nil` if none
  /// was remembered.
  ///
  /// - Parameter service: The service's name, as in `BuildRecord.service`.
  /// - Returns: The median, the lower of the two middle values for an even count.
  public func typicalSelfTime(of service: String) -> Duration? {
    // Under the lock, without copying the costs: the first frame asks for every service.
    withState { state in
      guard let costs = state.snapshot.services[service] else { return nil }
      var times: [Duration] = []
      times.reserveCapacity(costs.count)
      for cost in costs where cost.outcome == .built { times.append(cost.selfTime) }
      return Self.median(times)
    }
  }

  /// The median offset of `milestone` over the window, or `nil` if none was remembered.
  ///
  /// - Parameter milestone: The milestone.
  /// - Returns: The median.
  public func typicalOffset(of milestone: Milestone.Kind) -> Duration? {
    Self.median(withState { $0.snapshot.milestones[milestone] ?? [] })
  }

  /// Problems reading or saving the stored history, as hazards: each
  /// `Hazard.Kind.historyUnreadable` or `Hazard.Kind.historyUnwritable`. A container's
  /// reports include them.
  public var hazards: [Hazard] { withState { $0.hazards } }

  /// Adds a launch's costs: each service's last build in `report`, and its milestones. A
  /// history kept in a storage writes them with the next ``save()``.
  ///
  /// A container with a history records its own launches, once fully ready: call this for
  /// launches of your own only.
  ///
  /// - Parameter report: The launch's report, best made once it is fully ready.
  public func record(_ report: LaunchReport) {
    add(report, keepingBaselineFor: nil)
  }

  /// Reads the stored history now, if it was not read yet; does nothing for a history in
  /// memory. Every other use reads it first, so calling this only chooses when the reading
  /// happens: the container calls it when the first frame is drawn, outside its locks.
  public func load() {
    withState { _ in }
  }

  /// Writes the launches recorded since the last save to the storage: holding the storage's
  /// lock (``LaunchHistoryStorage/withExclusiveAccess(_:)``), it reads the stored history
  /// again, adds them, and replaces it atomically, so that other processes' saves are kept.
  ///
  /// A container with a history saves in a background job once the app is fully ready. A
  /// failure is a `Hazard.Kind.historyUnwritable` hazard in ``hazards``; the launches stay
  /// in memory, for the next save to try again.
  public func save() {
    guard let storage else { return }
    saving.withLock { _ in
      let pending = withState { $0.pending }
      guard !pending.isEmpty else { return }
      let window = window
      do throws(LaunchHistoryStorageError) {
        // Under the storage's lock, what another process saved since this one read is read
        // again and kept; a file unreadable now is replaced.
        var merged = try storage.withExclusiveAccess {
          () throws(LaunchHistoryStorageError) -> Snapshot in
          var merged = Snapshot()
          if case .success(let stored)? = read(storage) { merged = stored }
          for entry in pending { merged.apply(entry, window: window) }
          try storage.replace(with: HistoryFormat.encode(merged))
          return merged
        }
        state.withLock { state in
          state.pending.removeFirst(min(pending.count, state.pending.count))
          for entry in state.pending { merged.apply(entry, window: window) }
          state.snapshot = merged
        }
      } catch {
        let hazard = Hazard(
          kind: .historyUnwritable, service: Self.hazardService,
          detail: "The launch history (\(storage)) could not be saved: \(error.message).")
        state.withLock { $0.hazards.append(hazard) }
      }
    }
  }

  /// The name the history's hazards give as their service.
  static let hazardService = "LaunchHistory"

  /// Adds a launch; with a token, keeps the history as it was before, for ``baseline(for:)``.
  private func add(_ report: LaunchReport, keepingBaselineFor token: Int?) {
    let entry = Entry(report)
    let (window, keepsPending) = (window, storage != nil)
    withState { state in
      if let token {
        state.baselines.append((token, state.snapshot))
        if state.baselines.count > 4 { state.baselines.removeFirst() }
      }
      state.snapshot.apply(entry, window: window)
      if keepsPending { state.pending.append(entry) }
    }
  }

  /// The history as it was before the launch recorded with `token`, or as it is.
  func baseline(for token: Int?) -> Snapshot {
    withState { state in
      state.baselines.last { $0.token == token }?.snapshot ?? state.snapshot
    }
  }

  // MARK: - Inside

  /// Runs `body` on the state, once the storage has been read.
  private func withState<Result>(_ body: (inout State) -> Result) -> Result {
    state.withLock { state in
      if !state.loaded {
        state.loaded = true
        if let storage {
          switch read(storage) {
          case .success(let snapshot)?: state.snapshot = snapshot
          case .failure(let problem)?:
            state.hazards.append(
              Hazard(
                kind: .historyUnreadable, service: Self.hazardService,
                detail: "The launch history (\(storage)) was ignored: \(problem.message)."))
          case nil: break
          }
        }
      }
      return body(&state)
    }
  }

  /// The stored history, `nil` if none is stored, or why it cannot be read.
  private func read(_ storage: any LaunchHistoryStorage) -> Result<
    Snapshot, HistoryFormat.Problem
  >? {
    let bytes: [UInt8]
    do throws(LaunchHistoryStorageError) {
      guard let read = try storage.read(limit: HistoryFormat.byteLimit) else { return nil }
      bytes = read
    } catch {
      return .failure(HistoryFormat.Problem("it could not be read (\(error.message))"))
    }
    guard bytes.count <= HistoryFormat.byteLimit else {
      return .failure(
        HistoryFormat.Problem(
          "it could not be read (\(bytes.count) bytes, more than the"
            + " \(HistoryFormat.byteLimit) a history may have)"))
    }
    return HistoryFormat.decode(bytes, window: window)
  }

  static func median(_ values: [Duration]) -> Duration? {
    var values = values
    values.sort()
    return values.isEmpty ? nil : values[(values.count - 1) / 2]
  }
}

extension LaunchHistory: PastLaunches {
  package func reserveToken() -> Int {
    state.withLock { state in
      state.lastToken += 1
      return state.lastToken
    }
  }

  package func record(_ report: LaunchReport, token: Int) {
    add(report, keepingBaselineFor: token)
  }

  package func hazards(builds: [BuildRecord], milestones: [Milestone], token: Int?) -> [Hazard] {
    hazards + regressions(builds: builds, milestones: milestones, against: baseline(for: token))
  }
}
