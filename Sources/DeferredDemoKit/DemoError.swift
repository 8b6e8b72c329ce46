/// A failure of the demo itself (a file it could not write, a child that did not report),
/// with a message for the terminal.
public struct DemoError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, in a sentence.
  public let message: String

  /// Creates an error.
  ///
  /// - Parameter message: What went wrong.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
