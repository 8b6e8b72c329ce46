/// The system calls of field measurement: MetricKit's extended launch and custom signposts,
/// behind a protocol so that tests (and platforms without MetricKit) put something else there.
///
/// `MetricKitSystem` makes the calls on iOS. A test gives ``FieldMeasurement`` a recording
/// double and checks what was called, when, and on which thread; a double that throws stands
/// for the system refusing.
///
/// ```swift
/// struct Refusing: FieldSystem {
///   struct Refused: Error {}
///   func extendLaunchMeasurement(taskID: String) throws { throw Refused() }
///   func finishExtendedLaunchMeasurement(taskID: String) throws {}
///   func signpost(_ edge: FieldSignpostEdge, category: String, name: FieldSignposts.Name) {}
/// }
/// ```
public protocol FieldSystem: Sendable {
  /// Starts an extended-launch task (`MXMetricManager.extendLaunchMeasurement(forTaskID:)`).
  /// Called on the main thread.
  ///
  /// - Parameter taskID: The task's identifier.
  /// - Throws: The system's refusal (too late, too many tasks, a duplicate identifier).
  func extendLaunchMeasurement(taskID: String) throws

  /// Finishes the extended-launch task `taskID`
  /// (`MXMetricManager.finishExtendedLaunchMeasurement(forTaskID:)`). Called on the main
  /// thread.
  ///
  /// - Parameter taskID: The task's identifier.
  /// - Throws: The system's refusal (an unknown task).
  func finishExtendedLaunchMeasurement(taskID: String) throws

  /// Begins or ends a custom signpost interval named `name` in `category` (`mxSignpost` on a
  /// log from `MXMetricManager.makeLogHandle(category:)`). Called on any thread.
  ///
  /// - Parameters:
  ///   - edge: Whether the interval begins or ends.
  ///   - category: The signpost's category: ``FieldSignposts/phaseCategory``, or a service's
  ///     (``FieldSignposts/category(of:)``).
  ///   - name: Its literal name.
  func signpost(_ edge: FieldSignpostEdge, category: String, name: FieldSignposts.Name)
}

/// Whether a signpost interval begins or ends.
public enum FieldSignpostEdge: String, Sendable, Hashable, CaseIterable {
  /// The interval begins.
  case begin
  /// The interval ends.
  case end
}
