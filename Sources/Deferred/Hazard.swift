/// Something in a launch worth fixing, named by a ``LaunchReport``.
public struct Hazard: Sendable, Hashable, CustomStringConvertible {
  /// The kind of hazard.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The main thread waited for a build on another thread.
    case mainThreadWait
    /// A service that is not critical was built before the first frame, because a critical one
    /// needs it.
    case promoted
    /// A service was built in the background and has not been handed out: warmed up for nothing
    /// (so far).
    case unusedWarmUp
    /// A deferred build failed and nobody has asked for the service since.
    case unaskedFailure
    /// One critical initializer took more than the share of the critical phase the app allows.
    case largeShare
  }

  /// The kind of hazard.
  public var kind: Kind
  /// The service it is about.
  public var service: String
  /// What happened, in a sentence.
  public var detail: String
  /// How long it cost, in nanoseconds, where that applies.
  public var duration: UInt64?

  /// Creates a hazard.
  ///
  /// - Parameters:
  ///   - kind: The kind.
  ///   - service: The service it is about.
  ///   - detail: What happened.
  ///   - duration: What it cost, in nanoseconds.
  public init(kind: Kind, service: String, detail: String, duration: UInt64? = nil) {
    self.kind = kind
    self.service = service
    self.detail = detail
    self.duration = duration
  }

  /// The sentence that says what happened.
  public var description: String { detail }
}
