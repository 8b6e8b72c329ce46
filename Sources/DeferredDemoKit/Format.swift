/// Numbers as the demo prints them, without Foundation's formatters.
public enum Format {
  /// `value` with exactly `places` decimals: `decimal(2.345, places: 2)` is `2.35`.
  ///
  /// - Parameters:
  ///   - value: The number.
  ///   - places: How many decimals.
  /// - Returns: The text; `null` for a value that is not finite.
  public static func decimal(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return "null" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e18 else { return String(value) }
    let whole = Int64(scaled)
    let divisor = Int64(scale)
    let sign = value < 0 && whole != 0 ? "-" : ""
    guard places > 0 else { return sign + String(whole) }
    let fraction = String(whole % divisor)
    let zeros = String(repeating: "0", count: places - fraction.count)
    return "\(sign)\(whole / divisor).\(zeros)\(fraction)"
  }

  /// A duration as milliseconds with `places` decimals:
  /// `milliseconds(.nanoseconds(12_345_678), places: 2)` is `12.35 ms`.
  ///
  /// - Parameters:
  ///   - duration: The duration.
  ///   - places: How many decimals.
  /// - Returns: The text, with its unit.
  public static func milliseconds(_ duration: Duration, places: Int) -> String {
    "\(decimal(duration / .milliseconds(1), places: places)) ms"
  }

  /// A duration as milliseconds: `milliseconds(.milliseconds(40))` is `40 ms`.
  static func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let value = Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    return "\(decimal(value, places: value == value.rounded() ? 0 : 1)) ms"
  }

  /// `text` padded with spaces on the left to `width` characters.
  static func right(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  /// `text` padded with spaces on the right to `width` characters.
  static func left(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
}
