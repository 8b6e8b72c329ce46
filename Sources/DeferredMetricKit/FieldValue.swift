/// Reads the durations MetricKit writes into its JSON as text: a number, grouped as the
/// device's locale groups it, and a unit (`"1,000 ms"`, `"20 sec"`, `"1,530毫秒"`).
enum FieldValue {
  /// The largest duration a payload may give: a day. Anything longer is not a launch.
  static let limit = Duration.seconds(86_400)

  /// The units MetricKit writes for `UnitDuration`, in the locales it is known to use, and
  /// their size in nanoseconds.
  private static let units: [String: Double] = [
    "ns": 1, "µs": 1_000, "μs": 1_000, "us": 1_000, "ms": 1_000_000, "msec": 1_000_000,
    "s": 1_000_000_000, "sec": 1_000_000_000, "secs": 1_000_000_000,
    "min": 60_000_000_000, "毫秒": 1_000_000, "秒": 1_000_000_000,
  ]

  /// The duration `text` gives.
  ///
  /// A number's separators are read as the payload's locale wrote them: a separator that
  /// appears more than once, or once followed by exactly three digits with no other kind of
  /// separator, groups thousands; otherwise it is the decimal point (`1.5 sec`). With both `,`
  /// and `.`, the last one is the decimal point.
  ///
  /// - Throws: ``FieldPayloadError`` naming `path` for a value with no number, a unit other
  ///   than a duration's, or a duration below zero or above a day.
  static func duration(_ text: String, at path: String) throws(FieldPayloadError) -> Duration {
    let scalars = Array(text.unicodeScalars)
    var index = 0
    var number = ""
    let spaces: Set<Unicode.Scalar> = [" ", "\u{A0}", "\u{202F}", "'", "\u{2019}"]
    while index < scalars.count {
      let scalar = scalars[index]
      if ("0"..."9").contains(scalar) || scalar == "," || scalar == "." {
        number.unicodeScalars.append(scalar)
      } else if spaces.contains(scalar), index + 1 < scalars.count,
        ("0"..."9").contains(scalars[index + 1]), !number.isEmpty
      {
        // A space between digits groups them.
      } else {
        break
      }
      index += 1
    }
    var unit = String(String.UnicodeScalarView(scalars[index...]))
    unit = String(unit.drop(while: { $0 == " " || $0 == "\u{A0}" || $0 == "\u{202F}" }))
    guard let value = parse(number) else {
      throw FieldPayloadError("\(path): \"\(text)\" is not a duration (no number)")
    }
    guard let scale = units[unit] else {
      throw FieldPayloadError("\(path): \"\(text)\" is not a duration (unit \"\(unit)\")")
    }
    let nanoseconds = value * scale
    guard nanoseconds.isFinite, nanoseconds >= 0,
      nanoseconds <= Double(limit.components.seconds) * 1e9
    else {
      throw FieldPayloadError("\(path): \"\(text)\" is out of range (0 to a day)")
    }
    return .nanoseconds(Int64(nanoseconds.rounded()))
  }

  /// The number in `text`, its grouping separators taken out.
  private static func parse(_ text: String) -> Double? {
    guard text.contains(where: \.isNumber) else { return nil }
    let lastComma = text.lastIndex(of: ",")
    let lastDot = text.lastIndex(of: ".")
    var decimal: Character?
    switch (lastComma, lastDot) {
    case (let comma?, let dot?): decimal = comma > dot ? "," : "."
    case (nil, nil): decimal = nil
    case (let only?, nil), (nil, let only?):
      let separator = text[only]
      let occurrences = text.filter { $0 == separator }.count
      let digitsAfter = text[text.index(after: only)...].count
      decimal = occurrences == 1 && digitsAfter != 3 ? separator : nil
    }
    var plain = ""
    for character in text {
      if character == decimal {
        plain.append(".")
      } else if character.isNumber {
        plain.append(character)
      }
    }
    return Double(plain)
  }
}
