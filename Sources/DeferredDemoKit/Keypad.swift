/// The calculator's keys, as its main screen lays them out.
public enum Keypad {
  /// The keys, row by row, top to bottom.
  public static let rows: [[String]] = [
    ["C", "±", "%", "÷"],
    ["7", "8", "9", "×"],
    ["4", "5", "6", "−"],
    ["1", "2", "3", "+"],
    ["0", ".", "⌫", "="],
  ]

  /// Every key, row by row.
  public static let keys: [String] = rows.flatMap { $0 }

  /// How a key looks.
  enum Kind {
    /// A digit or the decimal point: dark.
    case digit
    /// An arithmetic operator or `=`: orange.
    case operation
    /// Clear, sign, percent, delete: light.
    case function
  }

  static func kind(of key: String) -> Kind {
    switch key {
    case "÷", "×", "−", "+", "=": .operation
    case "C", "±", "%", "⌫": .function
    default: .digit
    }
  }
}
