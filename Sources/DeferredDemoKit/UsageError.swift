/// A command line that is not one the demo understands: what is wrong, and the usage.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong with the arguments.
  public let message: String

  /// Creates the error.
  ///
  /// - Parameter message: What is wrong with the arguments.
  public init(_ message: String) {
    self.message = message
  }

  /// The usage message that goes with the error.
  public var usage: String { Command.usage }

  /// The error and the usage, as printed on standard error.
  public var description: String { "DeferredDemo: \(message)\n\n\(usage)" }
}
