/// How long a built value lives.
///
/// ```swift
/// extension Scope {
///   static let session = Scope.named("session")
/// }
/// try container.register(Session.self, scope: .session) { try Session.restore() }
/// try container.register(Editor.self, scope: .weak) { EditorModel() }
/// container.reset(.session)  // logout: the session, and all built with it, are dropped
/// ```
public enum Scope: Sendable, Hashable, CustomStringConvertible {
  /// Built once, on first need, then cached in the container that owns the registration.
  case singleton
  /// Built anew every time it is resolved; nothing is cached.
  case transient
  /// Built on first need and shared while anything outside the container holds it; built anew
  /// once the last holder lets it go. The container keeps only a weak reference, so the
  /// value must be an object: a class, or a protocol existential bound to classes
  /// (`protocol Editor: AnyObject`). Registering another type fails with
  /// ``DeferredError/Code/invalidScope``. Work handed to it with `whenReady` once its object
  /// is gone waits for its next build.
  case weak
  /// Cached like a singleton until ``Container/reset(_:)`` drops the scope: the next resolve
  /// builds anew. Resetting a scope also drops every cached service built with one of its
  /// values (a singleton depending on the session is rebuilt with the new session).
  case named(String)

  /// The scope's name, as shown in reports.
  public var description: String {
    switch self {
    case .singleton: "singleton"
    case .transient: "transient"
    case .weak: "weak"
    case .named(let name): name
    }
  }

  /// The scope's kind, without its name: what the build paths test (a byte, where the scope
  /// itself carries a string to copy).
  var kind: ScopeKind {
    switch self {
    case .singleton: .singleton
    case .transient: .transient
    case .weak: .weak
    case .named: .named
    }
  }

  /// Whether this is a named scope.
  var isNamed: Bool { kind == .named }
}

/// A ``Scope`` without its name.
enum ScopeKind: UInt8 {
  case singleton, transient, weak, named

  /// Whether the value lives in the node's state rather than in its lock-free cell: weak and
  /// named scopes (a singleton decides when it is built, see `AnyNode.finish`).
  var isHeld: Bool { self == .weak || self == .named }

  /// Whether a value of this scope is kept at all (built at launch, waited for, shared).
  var isCached: Bool { self != .transient }
}
