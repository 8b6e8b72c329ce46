import Synchronization

/// The container an app writes itself instead of using a library: one `Synchronization.Mutex`
/// around a dictionary from a service's type to its entry, the service's factory until it is
/// first resolved, its value from then on. A service registered as transient keeps its factory,
/// which makes a new value on every resolve. Services registered under a name are in a
/// dictionary of their own, keyed by the type and the name.
///
/// Services are classes, as an app's shared services are: a value is kept as an object and read
/// back with a class cast.
///
/// The lock is not held while a factory runs (a factory resolves what it needs, which takes the
/// lock again); two threads resolving the same service for the first time at once may both run
/// its factory, and the first value stored wins.
///
/// An app writes such a container in its own module, where the compiler specialises its generic
/// methods for each service type: here they are `@inlinable`, so that the benchmarks' module,
/// in which the services are resolved, gets the same code.
public final class HandWrittenContainer: Sendable {
  /// What a service is: an object that may be shared across threads.
  public typealias Object = AnyObject & Sendable
  @usableFromInline
  typealias Factory = @Sendable (HandWrittenContainer) -> Object

  @usableFromInline
  enum Entry: Sendable {
    case factory(Factory)
    case transient(Factory)
    case value(Object)
  }

  /// The key of a service registered under a name.
  @usableFromInline
  struct NamedKey: Hashable, Sendable {
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let name: String

    @inlinable
    init(type: ObjectIdentifier, name: String) {
      self.type = type
      self.name = name
    }
  }

  @usableFromInline
  struct State: Sendable {
    @usableFromInline var entries: [ObjectIdentifier: Entry] = [:]
    @usableFromInline var named: [NamedKey: Entry] = [:]

    @inlinable
    init() {}
  }

  @usableFromInline
  let state = Mutex(State())

  /// Creates an empty container.
  public init() {}

  /// Registers `factory` as the lazy factory of `type`: it runs on the first resolve, and its
  /// value is kept.
  @inlinable
  public func register<Value: Object>(
    _ type: Value.Type, _ factory: @escaping @Sendable (HandWrittenContainer) -> Value
  ) {
    state.withLock { $0.entries[ObjectIdentifier(type)] = .factory(factory) }
  }

  /// Registers `factory` as the factory of `type`, called on every resolve.
  @inlinable
  public func registerTransient<Value: Object>(
    _ type: Value.Type, _ factory: @escaping @Sendable (HandWrittenContainer) -> Value
  ) {
    state.withLock { $0.entries[ObjectIdentifier(type)] = .transient(factory) }
  }

  /// Registers `factory` as the lazy factory of `type` under `name`.
  @inlinable
  public func register<Value: Object>(
    _ type: Value.Type, name: String,
    _ factory: @escaping @Sendable (HandWrittenContainer) -> Value
  ) {
    let key = NamedKey(type: ObjectIdentifier(type), name: name)
    state.withLock { $0.named[key] = .factory(factory) }
  }

  /// The value of `type`, made by its factory the first time (every time if it is transient).
  @inlinable
  public func resolve<Value: Object>(_ type: Value.Type) -> Value {
    let key = ObjectIdentifier(type)
    switch state.withLock({ $0.entries[key] }) {
    case .value(let value):
      return value as! Value
    case .transient(let make):
      return make(self) as! Value
    case .factory(let make):
      let made = make(self)
      let kept = state.withLock { state in
        if case .value(let value) = state.entries[key] { return value }
        state.entries[key] = .value(made)
        return made
      }
      return kept as! Value
    case nil:
      fatalError("nothing registered for \(type)")
    }
  }

  /// The value of `type` under `name`, made by its factory the first time.
  @inlinable
  public func resolve<Value: Object>(_ type: Value.Type, name: String) -> Value {
    let key = NamedKey(type: ObjectIdentifier(type), name: name)
    switch state.withLock({ $0.named[key] }) {
    case .value(let value):
      return value as! Value
    case .transient(let make):
      return make(self) as! Value
    case .factory(let make):
      let made = make(self)
      let kept = state.withLock { state in
        if case .value(let value) = state.named[key] { return value }
        state.named[key] = .value(made)
        return made
      }
      return kept as! Value
    case nil:
      fatalError("nothing registered for \(type) named \(name)")
    }
  }
}
