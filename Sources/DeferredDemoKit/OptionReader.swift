/// Reads `--option [value]` pairs, refusing repeats of all but the options that may repeat.
struct OptionReader {
  private var remaining: ArraySlice<String>
  private var seen: Set<String> = []
  private let command: String
  /// The options that may be given more than once (`--payload` of `field`).
  private let repeatable: Set<String>

  init(_ arguments: [String], command: String, repeatable: Set<String> = []) {
    remaining = arguments[...]
    self.command = command
    self.repeatable = repeatable
  }

  mutating func next() throws(UsageError) -> String? {
    guard let option = remaining.popFirst() else { return nil }
    guard option.hasPrefix("--") else {
      throw UsageError("unexpected argument \"\(option)\" for \(command)")
    }
    guard repeatable.contains(option) || seen.insert(option).inserted else {
      throw UsageError("\(option) is given twice")
    }
    return option
  }

  mutating func value(for option: String) throws(UsageError) -> String {
    guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
      throw UsageError("\(option) needs a value")
    }
    return value
  }

  mutating func slowdown() throws(UsageError) -> Double {
    let value = try value(for: "--slowdown")
    guard let factor = Double(value), factor.isFinite, factor >= 1, factor <= 1_000 else {
      throw UsageError("--slowdown must be a number from 1 to 1000, not \"\(value)\"")
    }
    return factor
  }

  mutating func workers() throws(UsageError) -> Int {
    let value = try value(for: "--workers")
    guard let workers = Int(value), (1...64).contains(workers) else {
      throw UsageError("--workers must be a whole number from 1 to 64, not \"\(value)\"")
    }
    return workers
  }

  /// `SERVICE=X`: a service whose work ``AppServices/scalable`` can scale, and a factor.
  mutating func slow() throws(UsageError) -> (service: String, factor: Double) {
    let value = try value(for: "--slow")
    let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, let factor = Double(parts[1]), factor.isFinite, factor >= 1,
      factor <= 1_000
    else {
      throw UsageError("--slow must be SERVICE=X with X from 1 to 1000, not \"\(value)\"")
    }
    guard AppServices.scalable.contains(parts[0]) else {
      throw UsageError(
        "--slow cannot scale \(parts[0]); it can scale "
          + AppServices.scalable.sorted().joined(separator: ", "))
    }
    return (parts[0], factor)
  }

  mutating func finish() throws(UsageError) {
    if let extra = remaining.first { throw UsageError("unexpected argument \"\(extra)\"") }
  }

  func unknown(_ option: String) -> UsageError {
    UsageError("unknown option \(option) for \(command)")
  }
}
