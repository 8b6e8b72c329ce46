#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How the package's JSON documents are written and read: `JSONEncoder` with keys sorted, so
/// that output is the same on every platform, and `JSONDecoder` after a nesting check.
package enum JSONCoding {
  /// The deepest nesting a document may have: it keeps a hostile document from driving a
  /// recursive decoder into the stack's end (the library's documents nest four levels).
  package static let depthLimit = 64

  /// `value` as JSON text: keys sorted, slashes unescaped; indented by two spaces a level if
  /// `pretty`.
  package static func text(_ value: some Encodable, pretty: Bool) -> String {
    String(decoding: data(value, pretty: pretty), as: UTF8.self)
  }

  /// `value` as JSON bytes, as ``text(_:pretty:)`` writes them.
  package static func data(_ value: some Encodable, pretty: Bool = false) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      pretty
      ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
      : [.sortedKeys, .withoutEscapingSlashes]
    do {
      return try encoder.encode(value)
    } catch {
      // The library's documents hold strings, integers and finite numbers only.
      preconditionFailure("a library document failed to encode: \(error)")
    }
  }

  /// Reads a `Value` from `data`, after checking its nesting without recursion.
  ///
  /// - Throws: ``JSONError`` for a document nested deeper than ``depthLimit``, text that is
  ///   not JSON, or JSON not in `Value`'s shape; an error the value's own decoding throws
  ///   that is not a `DecodingError` is thrown as it is.
  package static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value
  {
    try checkDepth(data)
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch let error as DecodingError {
      throw JSONError(error)
    }
  }

  /// Throws if `bytes` nest arrays and objects deeper than ``depthLimit``.
  static func checkDepth(_ bytes: some Sequence<UInt8>) throws(JSONError) {
    let scan = Scan(bytes, stoppingDeeperThan: depthLimit)
    if let offset = scan.tooDeepAt {
      throw JSONError(
        message: "arrays and objects are nested deeper than \(depthLimit) levels", offset: offset)
    }
  }

  /// One pass over a document's bytes: the nesting of brackets outside strings.
  package struct Scan {
    /// Where the document first nests deeper than the limit, if it does.
    var tooDeepAt: Int?
    var depth = 0
    var inString = false

    package init(_ bytes: some Sequence<UInt8>, stoppingDeeperThan limit: Int) {
      var escaped = false
      for (offset, byte) in bytes.enumerated() {
        if inString {
          if escaped {
            escaped = false
          } else if byte == UInt8(ascii: "\\") {
            escaped = true
          } else if byte == UInt8(ascii: "\"") {
            inString = false
          }
          continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"):
          depth += 1
          if depth > limit {
            tooDeepAt = offset
            return
          }
        case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
        default: break
        }
      }
    }

    /// Whether the document stops before its last bracket or string closes.
    package var isCutShort: Bool { depth > 0 || inString }
  }
}

extension JSONError {
  /// The fault a `DecodingError` names: where in the document (`builds[2].startNs`), and what.
  init(_ error: DecodingError) {
    func path(_ codingPath: [any CodingKey]) -> String {
      var text = ""
      for key in codingPath {
        if let index = key.intValue {
          text += "[\(index)]"
        } else {
          text += text.isEmpty ? key.stringValue : "." + key.stringValue
        }
      }
      return text
    }
    func described(_ context: DecodingError.Context) -> String {
      let place = path(context.codingPath)
      var detail = context.debugDescription
      if let underlying = context.underlyingError { detail += " (\(underlying))" }
      return place.isEmpty ? detail : "\(place): \(detail)"
    }
    let message =
      switch error {
      case .keyNotFound(let key, let context):
        "missing \(path(context.codingPath + [key]))"
      case .typeMismatch(_, let context), .valueNotFound(_, let context),
        .dataCorrupted(let context):
        described(context)
      @unknown default:
        "\(error)"
      }
    self.init(message: message, offset: nil)
  }
}
