#if canImport(MetricKit) && os(iOS)
  import Deferred
  import MetricKit
  import os

  /// MetricKit's calls, on iOS: the extended launch measurement and custom signposts.
  ///
  /// The extended-launch calls exist from iOS 16, the package's floor. On macOS the SDK marks
  /// them unavailable, so this type is compiled for iOS only; elsewhere
  /// ``FieldMeasurement/platformSystem`` is `nil` and field measurement does nothing.
  ///
  /// Each signpost category has one log handle, made on first use and kept; every interval is
  /// an exclusive one (a service's builds do not overlap one another, nor do the phases).
  public struct MetricKitSystem: FieldSystem {
    private let logs = Locked<[String: OSLog]>([:])

    /// Creates the system calls.
    public init() {}

    /// Calls `MXMetricManager.extendLaunchMeasurement(forTaskID:)`.
    ///
    /// - Parameter taskID: The task's identifier.
    /// - Throws: MetricKit's error.
    public func extendLaunchMeasurement(taskID: String) throws {
      try MXMetricManager.extendLaunchMeasurement(forTaskID: MXLaunchTaskID(rawValue: taskID))
    }

    /// Calls `MXMetricManager.finishExtendedLaunchMeasurement(forTaskID:)`.
    ///
    /// - Parameter taskID: The task's identifier.
    /// - Throws: MetricKit's error.
    public func finishExtendedLaunchMeasurement(taskID: String) throws {
      try MXMetricManager.finishExtendedLaunchMeasurement(
        forTaskID: MXLaunchTaskID(rawValue: taskID))
    }

    /// Emits `mxSignpost` on the category's log handle, with the name's `StaticString`.
    ///
    /// - Parameters:
    ///   - edge: Whether the interval begins or ends.
    ///   - category: The signpost's category.
    ///   - name: Its literal name.
    public func signpost(_ edge: FieldSignpostEdge, category: String, name: FieldSignposts.Name) {
      let log = logs.withLock { logs in
        if let log = logs[category] { return log }
        let log = MXMetricManager.makeLogHandle(category: category)
        logs[category] = log
        return log
      }
      mxSignpost(edge == .begin ? .begin : .end, log: log, name: name.staticName)
    }
  }
#endif
