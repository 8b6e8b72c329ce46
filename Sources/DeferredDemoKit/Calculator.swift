import Deferred

/// A calculation the user finished with `=`: what sync sends to the remote.
public struct Edit: Sendable, Hashable, CustomStringConvertible {
  /// The expression, such as `12 × 3 + 4`.
  public let expression: String
  /// What it came to.
  public let result: String

  /// The calculation as the tape shows it: `12 × 3 + 4 = 40`.
  public var description: String { "\(expression) = \(result)" }
}

/// The calculator: the keys' state machine and its tape of past calculations.
///
/// Building it replays the whole journal of past calculations from storage, re-evaluating each
/// to check the tape, as an app restoring its state would: real parsing and arithmetic.
public final class Calculator: Sendable {
  private struct State {
    var tokens: [String] = []
    var entry = ""
    var lastResult: String?
    var tape: [Edit] = []
  }

  /// How many past calculations the journal held.
  public let replayed: Int
  /// How many of them did not come to the result the journal recorded.
  public let mismatches: Int
  private let config: CachedConfig
  private let state: Locked<State>

  /// Replays the journal of past calculations.
  ///
  /// - Parameters:
  ///   - storage: The store holding the `history` record.
  ///   - config: The configuration, for the display's precision.
  /// - Throws: ``DemoError`` if the journal cannot be read.
  public init(storage: Storage, config: CachedConfig) throws(DemoError) {
    let journal = try storage.read("history")
    var replayed = 0
    var mismatches = 0
    var tape: [Edit] = []
    for line in journal.split(separator: UInt8(ascii: "\n")) {
      let text = String(decoding: line, as: UTF8.self)
      let tokens = text.split(separator: " ")
      guard tokens.count >= 3, tokens[tokens.count - 2] == "=",
        let recorded = Double(String(tokens[tokens.count - 1]))
      else { continue }
      let expression = Array(tokens[..<(tokens.count - 2)])
      replayed += 1
      guard let value = Arithmetic.evaluate(expression), value == recorded else {
        mismatches += 1
        continue
      }
      if tape.count == 64 { tape.removeFirst(32) }
      tape.append(
        Edit(expression: expression.joined(separator: " "), result: String(tokens.last!)))
    }
    self.replayed = replayed
    self.mismatches = mismatches
    self.config = config
    state = Locked(State(tape: tape))
  }

  /// What the display shows now.
  public var display: String {
    state.withLock { state in
      if !state.entry.isEmpty { return state.entry }
      return state.tokens.last.flatMap { Arithmetic.operators.contains($0) ? nil : $0 }
        ?? state.lastResult ?? "0"
    }
  }

  /// The most recent calculations, oldest first.
  public var tape: [Edit] { state.withLock { $0.tape } }

  /// Presses a key.
  ///
  /// - Parameter key: One of ``Keypad/keys``.
  /// - Returns: The finished calculation, when the key was `=`.
  @discardableResult
  public func press(_ key: String) -> Edit? {
    let digits = config.current.precision
    return state.withLock { state -> Edit? in
      switch key {
      case "0"..."9" where key.count == 1:
        state.entry = state.entry == "0" ? key : state.entry + key
      case ".":
        if !state.entry.contains(".") {
          state.entry = (state.entry.isEmpty ? "0" : state.entry) + "."
        }
      case "±":
        if state.entry.hasPrefix("-") {
          state.entry.removeFirst()
        } else if !state.entry.isEmpty {
          state.entry = "-" + state.entry
        }
      case "%":
        if let value = Double(state.entry) {
          state.entry = Arithmetic.format(value / 100, digits: digits)
        }
      case "⌫":
        if !state.entry.isEmpty { state.entry.removeLast() }
      case "C":
        state = State(lastResult: nil, tape: state.tape)
      case "=":
        if !state.entry.isEmpty { state.tokens.append(state.entry) }
        if let last = state.tokens.last, Arithmetic.operators.contains(last) {
          state.tokens.removeLast()
        }
        state.entry = ""
        guard !state.tokens.isEmpty, let value = Arithmetic.evaluate(state.tokens) else {
          return nil
        }
        let edit = Edit(
          expression: state.tokens.joined(separator: " "),
          result: Arithmetic.format(value, digits: digits))
        state.tokens = []
        state.lastResult = edit.result
        state.tape.append(edit)
        return edit
      default:
        guard Arithmetic.operators.contains(key) else { return nil }
        if !state.entry.isEmpty {
          state.tokens += [state.entry, key]
          state.entry = ""
        } else if let last = state.tokens.last, Arithmetic.operators.contains(last) {
          state.tokens[state.tokens.count - 1] = key
        } else if state.tokens.isEmpty, let result = state.lastResult {
          state.tokens = [result, key]
        }
      }
      return nil
    }
  }
}
