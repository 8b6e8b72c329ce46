/// How long a built value lives.
public enum Scope: Sendable, Hashable, CustomStringConvertible {
  /// Built once, on first need, then cached in the container that owns the registration.
  case singleton
  /// Built anew every time it is resolved; nothing is cached.
  case transient

  /// The scope's name, as shown in reports.
  public var description: String {
    switch self {
    case .singleton: "singleton"
    case .transient: "transient"
    }
  }
}
