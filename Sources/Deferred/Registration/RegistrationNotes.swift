#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The value type of a node the app does not name itself (an argument factory, its cache, a
/// collection's member): it says how its key is shown in errors and reports.
protocol DescribedKeyType {
  /// The key's text, given the key's name.
  static func keyDescription(name: String?) -> String
}

/// What a container knows of a registration beyond its node, kept by key in the registry it
/// was made in; most registrations have none.
struct RegistrationNote: Sendable {
  /// The ``Module`` that registered it, by name.
  var module: String?
  /// For a forward without a conversion: whether the source's node conforms (`nil` if unknown).
  var conformance: (@Sendable (AnyNode) -> Bool?)?
  /// For a collection: its members, in order, inherited ones first.
  var members: [CollectionEntry]?
  /// For a service whose type is not `Sendable`: the promise it was registered with.
  var promise: ConcurrencyPromise?
  /// Whether it forwards another service (``Container/forward(_:as:name:)``).
  var isForward = false
}

/// A member of a collection, as its collection's note keeps it.
struct CollectionEntry: Sendable {
  let key: AnyServiceKey
  let priority: Priority
}

/// A module being installed, and the thread whose registrations remember it.
struct Installing: Sendable {
  let module: String
  /// The installing thread's ``currentThreadID()``.
  let thread: UInt
}

/// The calling thread's identity: the bits of `pthread_self()`, only compared.
func currentThreadID() -> UInt {
  #if canImport(Glibc)
    UInt(pthread_self())
  #else
    UInt(bitPattern: pthread_self())
  #endif
}

extension Registry {
  /// The module the calling thread is installing, if it is installing one.
  var installingModule: String? {
    guard !installing.isEmpty else { return nil }
    let thread = currentThreadID()
    return installing.last { $0.thread == thread }?.module
  }

  /// Whether this container registered `key` itself (not a copy of an inherited one).
  func registersItself(_ key: AnyServiceKey) -> Bool {
    copies[key] == nil && table.find(key) != nil
  }
}

extension Container {
  /// The note of the registration of `key` this container resolves: its own, or the nearest
  /// ancestor's.
  func note(for key: AnyServiceKey) -> RegistrationNote? {
    var container: Container? = self
    while let current = container {
      let (note, own) = current.registry.withLock { ($0.notes[key], $0.registersItself(key)) }
      if note != nil || own { return note }
      container = current.parent
    }
    return nil
  }

  /// The node registered for `key` here or in the nearest ancestor, read without publishing
  /// a table (a child that publishes may register no more).
  func registeredNode(for key: AnyServiceKey) -> AnyNode? {
    var container: Container? = self
    while let current = container {
      if let node = current.registry.withLock({
        $0.table.find(key)
      }) {
        return node
      }
      container = current.parent
    }
    return nil
  }
}
