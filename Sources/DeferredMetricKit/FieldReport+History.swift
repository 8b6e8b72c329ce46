import Deferred
import DeferredHistory

extension FieldReport {
  /// Gives `history` the field's per-service medians as one launch, so that the first
  /// launches of a fresh install order their background builds longest path first by costs
  /// from real devices rather than by registration order.
  ///
  /// The launch recorded has a build of each service the field knows, whose self time is the
  /// field's median (a scheduled build's interval is its own time: the launch schedule builds
  /// its scheduled dependencies first), and no milestones. The device's own launches follow
  /// it in the history and outweigh it as they come; it ages out after the history's window.
  ///
  /// ```swift
  /// let history = LaunchHistory(directory: caches)
  /// if let shipped = Bundle.main.url(forResource: "field", withExtension: "json") {
  ///   FieldReport(payloads: try FieldPayload.read(Data(contentsOf: shipped))).seed(history)
  /// }
  /// let container = Container(history: history)
  /// ```
  ///
  /// - Parameters:
  ///   - history: The history to seed.
  ///   - onlyIfEmpty: Whether to leave a history that remembers a launch already alone (the
  ///     default): the device's own costs are better than the field's.
  /// - Returns: Whether the history was given the field's medians.
  @discardableResult
  public func seed(_ history: LaunchHistory, onlyIfEmpty: Bool = true) -> Bool {
    let medians = medians
    guard !medians.isEmpty, !onlyIfEmpty || history.launchCount == 0 else { return false }
    let builds = medians.sorted { $0.key < $1.key }.map { service, median in
      BuildRecord(
        service: service, priority: .afterFirstFrame(), trigger: .scheduled, thread: "field",
        isMainThread: false, start: .zero, duration: median, selfDuration: median,
        outcome: .built, attempt: 1)
    }
    history.record(
      LaunchReport(
        processStart: .unknown, processStartPrecision: .zero, milestones: [], builds: builds))
    return true
  }
}
