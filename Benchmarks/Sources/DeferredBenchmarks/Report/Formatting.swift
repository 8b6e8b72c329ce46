/// `value` with exactly `decimals` digits after the point, rounded: `fixed(3.14159, 2)` is
/// `"3.14"`.
func fixed(_ value: Double, _ decimals: Int) -> String {
  guard value.isFinite else { return "\(value)" }
  var scale: UInt64 = 1
  for _ in 0..<decimals { scale *= 10 }
  let units = UInt64((abs(value) * Double(scale)).rounded())
  var text = (value < 0 && units > 0 ? "-" : "") + String(units / scale)
  if decimals > 0 {
    let fraction = String(units % scale)
    text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
  }
  return text
}

/// A ratio such as `1.00×`, `12.3×` or `456×`: three significant figures or so.
func ratio(_ value: Double) -> String {
  fixed(value, value < 10 ? 2 : value < 100 ? 1 : 0) + "×"
}

/// `text` padded with spaces to `width`, on the right (`.left` alignment) or the left.
func padded(_ text: String, _ width: Int, alignRight: Bool = false) -> String {
  let padding = String(repeating: " ", count: max(0, width - text.count))
  return alignRight ? padding + text : text + padding
}
