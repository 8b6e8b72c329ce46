/// A fault in a JSON document given to a report reader: text that is not JSON, JSON nested
/// deeper than the reader allows, or JSON that is not a report of this schema.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong, and where in the document: `builds[2].startNs: …`, or the line and
  /// column of a syntax error.
  public let message: String
  /// Where, in bytes from the start, when the fault is at one byte the reader names: the
  /// bracket past the nesting limit. `nil` otherwise (``message`` says where).
  public let offset: Int?

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - message: What is wrong.
  ///   - offset: Where, in bytes from the start, if known.
  public init(message: String, offset: Int? = nil) {
    self.message = message
    self.offset = offset
  }

  /// What is wrong, and where.
  public var description: String {
    if let offset {
      "Invalid JSON at byte \(offset): \(message)."
    } else {
      "Invalid JSON: \(message)."
    }
  }
}
