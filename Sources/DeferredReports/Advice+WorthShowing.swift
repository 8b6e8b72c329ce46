import Deferred

extension Advice {
  /// The items worth reading beside the rest: an item that saves 0.1 ms or less is left out
  /// when another saves at least 10 ms, where it would only be noise.
  ///
  /// ```swift
  /// let shown = Advice.worthShowing(report.advice)
  /// let hidden = report.advice.count - shown.count  // say how many were left out
  /// ```
  ///
  /// - Parameter advice: Advice, as `LaunchReport.advise()` orders it.
  /// - Returns: The items worth showing, in the same order.
  public static func worthShowing(_ advice: [Advice]) -> [Advice] {
    guard let largest = advice.map(\.saving).max(), largest >= .milliseconds(10) else {
      return advice
    }
    return advice.filter { $0.saving > .microseconds(100) }
  }
}
