#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The calculator's arithmetic: `12.5 × 3 + 4`, numbers and operators separated by spaces,
/// `×` and `÷` before `+` and `−`.
enum Arithmetic {
  /// The operators, as the keypad and the journal write them.
  static let operators: Set<String> = ["+", "−", "×", "÷"]

  /// The value of an expression, or `nil` if it is malformed.
  static func evaluate<S: StringProtocol>(_ tokens: [S]) -> Double? {
    guard tokens.count % 2 == 1, var term = Double(String(tokens[0])) else { return nil }
    var sum = 0.0
    var index = 1
    while index < tokens.count {
      guard let number = Double(String(tokens[index + 1])) else { return nil }
      switch tokens[index] {
      case "×": term *= number
      case "÷": term /= number
      case "+":
        sum += term
        term = number
      case "−":
        sum += term
        term = -number
      default: return nil
      }
      index += 2
    }
    return sum + term
  }

  /// `value` with at most `digits` significant digits, as the display shows it.
  static func format(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "Error" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    let magnitude = Int(log10(abs(value)).rounded(.down))
    let scale = pow(10, Double(digits - 1 - magnitude))
    let rounded = (value * scale).rounded() / scale
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
    return String(rounded)
  }
}
