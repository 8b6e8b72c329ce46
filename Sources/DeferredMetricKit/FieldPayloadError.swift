/// Why a MetricKit payload could not be read: it is not JSON, it is too large or too deep, it
/// is not a metric payload, or one of its fields is not in the shape MetricKit writes.
///
/// Reading never crashes on a payload: every fault is this error, with the field's path.
///
/// ```swift
/// do {
///   let payload = try FieldPayload(json: data)
/// } catch {
///   log("ignored a payload: \(error)")  // "applicationLaunchMetrics…: "12 parsecs" is not a duration"
/// }
/// ```
public struct FieldPayloadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong, and where.
  public let message: String

  /// Creates an error.
  ///
  /// - Parameter message: What is wrong, and where.
  public init(_ message: String) {
    self.message = message
  }

  /// What is wrong, and where.
  public var description: String { "Unreadable MetricKit payload: \(message)." }
}
