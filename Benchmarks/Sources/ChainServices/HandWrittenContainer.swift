import Synchronization

/// The container an app writes itself instead of using a library: a dictionary of lazy
/// factories behind one `Synchronization.Mutex`, each replaced by its value the first time it is
/// resolved, unless it is registered as transient: then it makes a new value on every resolve.
///
/// The lock is not held while a factory runs (a factory resolves what it needs, which takes the
/// lock again); two threads resolving the same service for the first time at once may both run
/// its factory, and the first value stored wins. That is the usual shape of such a container,
/// and enough for a baseline of memory and registration costs.
///
/// An app writes such a container in its own module, where the compiler specialises its generic
/// methods for each service type: here they are `@inlinable`, so that the benchmarks' module,
/// in which the services are resolved, gets the same code.
public final class HandWrittenContainer: Sendable {
  @usableFromInline
  struct Key: Hashable, Sendable {
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let name: String?

    @inlinable
    init(type: ObjectIdentifier, name: String?) {
      self.type = type
      self.name = name
    }
  }

  @usableFromInline
  enum Entry: Sendable {
    case factory(@Sendable (HandWrittenContainer) -> any Sendable)
    case transient(@Sendable (HandWrittenContainer) -> any Sendable)
    case value(any Sendable)
  }

  @usableFromInline
  let entries = Mutex<[Key: Entry]>([:])

  /// Creates an empty container.
  public init() {}

  /// Registers `factory` as the lazy factory of `type` and `name`.
  @inlinable
  public func register<Value: Sendable>(
    _ type: Value.Type, name: String? = nil,
    _ factory: @escaping @Sendable (HandWrittenContainer) -> Value
  ) {
    let key = Key(type: ObjectIdentifier(type), name: name)
    entries.withLock { $0[key] = .factory(factory) }
  }

  /// Registers `factory` as the factory of `type` and `name`, called on every resolve.
  @inlinable
  public func registerTransient<Value: Sendable>(
    _ type: Value.Type, name: String? = nil,
    _ factory: @escaping @Sendable (HandWrittenContainer) -> Value
  ) {
    let key = Key(type: ObjectIdentifier(type), name: name)
    entries.withLock { $0[key] = .transient(factory) }
  }

  /// The value of `type` and `name`, made by its factory the first time (every time if it is
  /// transient).
  @inlinable
  public func resolve<Value: Sendable>(_ type: Value.Type, name: String? = nil) -> Value {
    let key = Key(type: ObjectIdentifier(type), name: name)
    let entry = entries.withLock { $0[key] }
    switch entry {
    case .value(let value):
      return value as! Value
    case .transient(let factory):
      return factory(self) as! Value
    case .factory(let factory):
      let made = factory(self)
      let stored: any Sendable = entries.withLock { entries in
        if case .value(let value) = entries[key] { return value }
        entries[key] = .value(made)
        return made
      }
      return stored as! Value
    case nil:
      fatalError("nothing registered for \(type)")
    }
  }
}
