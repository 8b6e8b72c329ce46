/// How long a built value lives.
///
/// ```swift
/// extension Scope {
///   static let session = Scope.named("session")
/// }
/// try container.register(Session.self, scope: .session) { try Session.restore() }
/// try container.register(EditorModel.self, scope: .weak) { EditorModel() }
/// container.reset(.session)  // logout: the session, and all built with it, are dropped
/// ```
///
/// `scope: .weak` compiles only where the registered type is a class (``WeakScope``): a
/// weak reference holds only objects. For a protocol bound to classes, which the compiler
/// cannot tell from any other protocol, write ``weakObject``, checked when it is registered.
public enum Scope: Sendable, Hashable, CustomStringConvertible {
  /// Built once, on first need, then cached in the container that owns the registration.
  case singleton
  /// Built anew every time it is resolved; nothing is cached.
  case transient
  /// Built on first need and shared while anything outside the container holds it; built anew
  /// once the last holder lets it go. The container keeps a weak reference, so the value must
  /// be an object: a class, or a protocol bound to classes; another type fails with
  /// ``DeferredError/Code/invalidScope``. Work handed to it with `whenReady` once its object
  /// is gone waits for its next build. A class takes `scope: .weak` (``WeakScope/weak``).
  case weakObject
  /// Cached like a singleton until ``Container/reset(_:)`` drops the scope: the next resolve
  /// builds anew. Resetting a scope also drops every cached service built with one of its
  /// values (a singleton depending on the session is rebuilt with the new session).
  case named(String)

  // swift-format-ignore
  /// Not available where the registered type is not a class: a weak reference holds only
  /// objects. For a class it is ``WeakScope/weak``; for a protocol bound to classes, write
  /// ``weakObject``.
  @available(
    *, unavailable,
    message: "a weak reference holds only objects, and this type is not a class: for a protocol bound to classes write `.weakObject` (checked when registered); a struct, an enum or another protocol needs another scope, such as `.singleton` or a named scope"
  )
  public static var weak: Scope { .weakObject }

  /// The scope's name, as shown in reports.
  public var description: String {
    switch self {
    case .singleton: "singleton"
    case .transient: "transient"
    case .weakObject: "weak"
    case .named(let name): name
    }
  }

  /// The scope's kind, without its name: a byte for the build paths to test.
  var kind: ScopeKind {
    switch self {
    case .singleton: .singleton
    case .transient: .transient
    case .weakObject: .weak
    case .named: .named
    }
  }

  /// Whether this is a named scope.
  var isNamed: Bool { kind == .named }
}

/// A ``Scope`` without its name.
enum ScopeKind: UInt8 {
  case singleton, transient, weak, named

  /// Whether the value lives in the node's state, not its lock-free cell (see
  /// `AnyNode.finish` for a singleton's).
  var isHeld: Bool { self == .weak || self == .named }

  /// Whether a value of this scope is kept at all (built at launch, waited for, shared).
  var isCached: Bool { self != .transient }
}
