/// How the field report prints durations and changes.
enum FieldFormat {
  /// `1516.7 ms`: tenths of a millisecond.
  static func milliseconds(_ duration: Duration?) -> String {
    guard let duration else { return "-" }
    let tenths = (duration.wholeNanoseconds + 50_000) / 100_000
    return "\(tenths / 10).\(tenths % 10) ms"
  }

  /// `+54%`, `-3%`: the change from `before` to `after`.
  static func change(from before: Duration, to after: Duration) -> String {
    guard before > .zero else { return "new" }
    let percent = Int(((after / before - 1) * 100).rounded())
    return percent >= 0 ? "+\(percent)%" : "\(percent)%"
  }

  /// `text` padded on the left to `width`.
  static func right(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  /// `text` padded on the right to `width`.
  static func left(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
}
