/// A JSON document, written and read without Foundation: the library's reports are JSON, and
/// the core links no Foundation.
enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  /// Keys in the order they were written, so output is stable.
  case object([(String, JSONValue)])

  static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.int(let a), .int(let b)): a == b
    case (.double(let a), .double(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(rendered())
  }

  subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  var string: String? { if case .string(let value) = self { value } else { nil } }
  var int: Int64? {
    switch self {
    case .int(let value): value
    case .double(let value): Int64(exactly: value)
    default: nil
    }
  }
  var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
  var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }

  // MARK: Writing

  /// The document as text: compact, or indented by two spaces a level.
  func rendered(pretty: Bool = false) -> String {
    var output = ""
    write(to: &output, pretty: pretty, depth: 0)
    return output
  }

  private func write(to output: inout String, pretty: Bool, depth: Int) {
    let newline = pretty ? "\n" + String(repeating: "  ", count: depth + 1) : ""
    let closing = pretty ? "\n" + String(repeating: "  ", count: depth) : ""
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .int(let value): output += String(value)
    case .double(let value):
      output += value.isFinite ? String(value) : "null"
    case .string(let value): Self.escape(value, into: &output)
    case .array(let values):
      guard !values.isEmpty else {
        output += "[]"
        return
      }
      output += "["
      for (index, value) in values.enumerated() {
        if index > 0 { output += "," }
        output += newline
        value.write(to: &output, pretty: pretty, depth: depth + 1)
      }
      output += closing + "]"
    case .object(let members):
      guard !members.isEmpty else {
        output += "{}"
        return
      }
      output += "{"
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { output += "," }
        output += newline
        Self.escape(key, into: &output)
        output += pretty ? ": " : ":"
        value.write(to: &output, pretty: pretty, depth: depth + 1)
      }
      output += closing + "}"
    }
  }

  private static func escape(_ string: String, into output: inout String) {
    output += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case let scalar where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }

  // MARK: Reading

  /// Parses `text`; throws ``JSONError`` naming the offset of the first fault.
  init(parsing text: String) throws(JSONError) {
    var parser = Parser(bytes: Array(text.utf8))
    parser.skipSpace()
    self = try parser.value()
    parser.skipSpace()
    guard parser.index == parser.bytes.count else { throw parser.error("trailing characters") }
  }

  private struct Parser {
    let bytes: [UInt8]
    var index = 0

    func error(_ message: String) -> JSONError { JSONError(message: message, offset: index) }

    mutating func skipSpace() {
      while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    mutating func expect(_ literal: String) throws(JSONError) {
      for byte in literal.utf8 {
        guard index < bytes.count, bytes[index] == byte else { throw error("expected \(literal)") }
        index += 1
      }
    }

    mutating func value() throws(JSONError) -> JSONValue {
      guard index < bytes.count else { throw error("unexpected end") }
      switch bytes[index] {
      case UInt8(ascii: "n"):
        try expect("null")
        return .null
      case UInt8(ascii: "t"):
        try expect("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try expect("false")
        return .bool(false)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "["):
        index += 1
        var values: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
          index += 1
          return .array(values)
        }
        while true {
          skipSpace()
          values.append(try value())
          skipSpace()
          guard index < bytes.count else { throw error("unterminated array") }
          if bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(values)
          }
          try expect(",")
        }
      case UInt8(ascii: "{"):
        index += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
          index += 1
          return .object(members)
        }
        while true {
          skipSpace()
          let key = try string()
          skipSpace()
          try expect(":")
          skipSpace()
          members.append((key, try value()))
          skipSpace()
          guard index < bytes.count else { throw error("unterminated object") }
          if bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
          }
          try expect(",")
        }
      default:
        return try number()
      }
    }

    mutating func string() throws(JSONError) -> String {
      try expect("\"")
      var scalars = String.UnicodeScalarView()
      var utf8: [UInt8] = []
      func flush() {
        scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
        utf8 = []
      }
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          flush()
          return String(scalars)
        case UInt8(ascii: "\\"):
          flush()
          guard index < bytes.count else { throw error("unterminated escape") }
          let escaped = bytes[index]
          index += 1
          switch escaped {
          case UInt8(ascii: "n"): scalars.append("\n")
          case UInt8(ascii: "r"): scalars.append("\r")
          case UInt8(ascii: "t"): scalars.append("\t")
          case UInt8(ascii: "b"): scalars.append("\u{8}")
          case UInt8(ascii: "f"): scalars.append("\u{C}")
          case UInt8(ascii: "u"):
            guard index + 4 <= bytes.count,
              let code = UInt32(
                String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
            else { throw error("bad \\u escape") }
            index += 4
            scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
          default: scalars.append(Unicode.Scalar(escaped))
          }
        default:
          utf8.append(byte)
        }
      }
      throw error("unterminated string")
    }

    mutating func number() throws(JSONError) -> JSONValue {
      let start = index
      var isInteger = true
      while index < bytes.count {
        let byte = bytes[index]
        if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") {
          index += 1
        } else if [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+")]
          .contains(byte)
        {
          isInteger = false
          index += 1
        } else {
          break
        }
      }
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      if isInteger, let value = Int64(text) { return .int(value) }
      guard let value = Double(text) else { throw error("bad number") }
      return .double(value)
    }
  }
}

/// A fault in a JSON document given to a report reader.
public struct JSONError: Error, Sendable, CustomStringConvertible {
  /// What is wrong.
  public let message: String
  /// Where, in bytes from the start.
  public let offset: Int

  /// What is wrong, and where.
  public var description: String { "Invalid JSON at byte \(offset): \(message)." }
}
