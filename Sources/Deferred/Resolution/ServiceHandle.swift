/// A typed reference to one service of one container, looked up once: for code that reads a
/// service in a hot loop, or keeps it in a view model.
///
/// Make it with ``Container/handle(_:name:)`` or ``Container/handle(for:)``. It holds the
/// service's registration, so reading a built singleton through it is a lock-free load of the
/// value: no lookup, no lock, no allocation. Before the service is
/// built, and whenever its value cannot be read straight away, it resolves the service as
/// ``Container/resolve(_:)->Value`` does (the same build on first need, the same waits, errors,
/// records and main-actor rules).
///
/// ```swift
/// @MainActor @Observable final class FeedModel {
///   private let api: ServiceHandle<APIClient>
///   private let images: ServiceHandle<ImageCache>
///
///   init(container: Container) throws {
///     api = try container.handle(APIClient.self)  // looked up now; built on first use
///     images = try container.handle(ImageCache.self)
///   }
///
///   func refresh() async throws {
///     let feed = try await api.awaitService().feed()  // suspends while it is built
///     for item in feed { try images.withValue { $0.prefetch(item.imageURL) } }
///   }
/// }
/// ```
///
/// A handle belongs to the container that made it:
/// - From a child container, it resolves what the child resolves: the child's override, or the
///   child's own copy of a singleton that depends on one.
/// - A registration replaced (`replacing: true`) after the handle was made is never returned
///   stale: a registration can be replaced only before it is built, so the handle's value was
///   never built, and the handle resolves the replacement, by its key, as `resolve` does (each
///   read then costs a `resolve`; a handle made after the replacement reads the fast way).
/// - A transient service is built anew on every read, as with `resolve`. Once the services it
///   declares are built, a read makes it at once: its factory is called with them, read
///   lock-free, into the caller's memory (no lookup, no walk of the graph, no allocation but
///   the factory's own), counted and timed in the launch report as every making is. Before
///   that, or from inside another service's factory, it is resolved as `resolve` does.
/// - Once the container (or the one that owns the registration, for one a child inherits) is
///   shut down, every read throws ``DeferredError/Code/shutDown``, even of a service built
///   before, as `resolve` does.
///
/// Making a handle counts as handing the service out: a service built in the background and
/// read only through handles is not reported as warmed up for nothing.
///
/// A handle keeps its container alive. It is a small `Sendable` value: copy it freely.
public struct ServiceHandle<Value: Sendable>: Sendable, CustomStringConvertible {
  /// The container the handle resolves in.
  public let container: Container
  /// The registration found when the handle was made; its owner is `container` or an ancestor.
  @usableFromInline let node: AnyNode

  init(container: Container, node: AnyNode) {
    self.container = container
    self.node = node
  }

  /// The key of the service the handle reads.
  public var key: ServiceKey<Value> {
    ServiceKey(name: node.key.name, nameHash: node.key.nameHash)
  }

  /// The service, as the key's type, shown in errors and reports.
  public var description: String { node.key.description }

  /// Returns the service, building it first if it is not built yet.
  ///
  /// A built singleton is read lock-free, straight from the registration the handle holds.
  /// Otherwise it is resolved as ``Container/resolve(_:)->Value`` resolves it: built on the calling
  /// thread after the services it depends on, or waited for if another thread is building it.
  ///
  /// ```swift
  /// let clock = try container.handle(Clock.self)
  /// for frame in frames { render(frame, at: try clock.resolve().now) }
  /// ```
  ///
  /// - Returns: The service.
  /// - Throws: ``DeferredError``, as ``Container/resolve(_:)->Value``: the service or one it needs is
  ///   missing, a factory threw, the services form a cycle, a wait ran past
  ///   ``Container/waitLimit``, an `async` service that is not built yet (use
  ///   ``awaitService(isolation:)``), or the container was shut down.
  @inlinable
  public func resolve() throws(DeferredError) -> Value {
    if let object = node.publishedObject(for: container) {
      return valueOfObject(object, as: Value.self)
    }
    return try resolveSlow()
  }

  /// Returns the service, and stops the program with the error's message if it cannot: for
  /// code that treats a missing or failing service as a programming error.
  ///
  /// - Returns: The service.
  @inlinable
  public func require() -> Value {
    if let object = node.publishedObject(for: container) {
      return valueOfObject(object, as: Value.self)
    }
    return requireSlow()
  }

  /// Calls `body` with the service, read in place: for a hot loop, where a copy of the value
  /// would cost more than the read.
  ///
  /// Anything else (not built yet, transient, weak, in a named scope, replaced, shut down) is
  /// resolved as ``resolve()`` resolves it, and `body` gets that value: built on first need,
  /// waited for while another thread builds it, never a dropped generation.
  ///
  /// ```swift
  /// let clock = try container.handle(Clock.self)
  /// for frame in frames { try clock.withValue { render(frame, at: $0.now) } }
  /// ```
  ///
  /// `body` does not throw, so that what the call throws is the resolve's own typed error;
  /// read the value with ``resolve()`` where the work on it throws.
  ///
  /// - Parameter body: What to do with the service; it must not keep it beyond the call
  ///   (copy it, or use ``resolve()``, to keep it).
  /// - Returns: What `body` returns.
  /// - Throws: ``DeferredError``, as ``resolve()``, when the service is not built and cannot
  ///   be resolved; `body` is then not called.
  @inlinable
  public func withValue<Output>(_ body: (Value) -> Output) throws(DeferredError) -> Output {
    if let object = node.publishedObject(for: container) {
      return body(valueOfObject(object, as: Value.self))
    }
    return try withValueSlow(body)
  }

  /// The part of ``withValue(_:)`` that is not inlined: `body` called with a resolved value.
  /// Specialised in the caller's module (a transient's making then moves its value as the
  /// caller's type), never inlined.
  @inlinable @inline(never)
  func withValueSlow<Output>(_ body: (Value) -> Output) throws(DeferredError) -> Output {
    body(try resolveSlow())
  }

  /// Returns the service, suspending while it is built; blocks no thread.
  ///
  /// The awaiting form, as ``Container/awaitService(_:isolation:)``: the only way to read a
  /// service with an `async` factory before it is built. A built service is returned at once,
  /// on the caller's actor.
  ///
  /// - Parameter isolation: The caller's actor, which the call stays on; filled in for you.
  /// - Returns: The service.
  /// - Throws: ``DeferredError``, as ``resolve()``.
  public func awaitService(
    isolation: isolated (any Actor)? = #isolation
  ) async throws(DeferredError) -> Value {
    if let object = node.publishedObject(for: container) {
      return valueOfObject(object, as: Value.self)
    }
    if let value = try madeAtOnce() { return value }
    return try await container.resolveAsync(key, context: nil)
  }

  /// What ``resolve()`` does with a service it cannot read straight away: a transient made at
  /// once, anything else resolved by key.
  @inlinable
  func resolveSlow() throws(DeferredError) -> Value {
    if let value = try madeAtOnce() { return value }
    return try resolveByKey()
  }

  /// A value of a transient service made at once, into the caller's memory: its factory
  /// called with its dependencies, which are built, and nothing else (no walk, no lookup, no
  /// allocation but the factory's own); `nil` where that cannot be (not transient, a
  /// dependency not built yet, main-actor, `async`, replaced, shut down, or a build under way
  /// on this thread), for the ordinary resolve.
  @inlinable
  func madeAtOnce() throws(DeferredError) -> Value? {
    guard let object = try node.makeTransient(for: container) else { return nil }
    return valueOfObject(object, as: Value.self)
  }

  /// The service resolved by the handle's key, as ``Container/resolve(_:)->Value`` resolves it.
  @usableFromInline
  func resolveByKey() throws(DeferredError) -> Value {
    try container.resolve(key, context: nil)
  }

  @usableFromInline
  func requireSlow() -> Value {
    do {
      return try resolveSlow()
    } catch {
      fatalError("Deferred: \(error)")
    }
  }
}

extension AnyNode {
  /// The built singleton's value (its object), if a handle for `container` can read it
  /// straight away: it is published and neither `container` nor the node's owner is shut
  /// down. Anything else goes the way of an ordinary resolve, by key.
  @usableFromInline
  func publishedObject(for container: Container) -> AnyObject? {
    guard let object = value.load(), !isShutDown,
      !container.isShutDownRelaxed
    else { return nil }
    return object
  }
}

extension Container {
  /// Returns a handle to the service registered for `type` and `name`: looked up now, built
  /// when first read.
  ///
  /// ```swift
  /// let clock = try container.handle(Clock.self)
  /// let now = try clock.resolve().now
  /// ```
  ///
  /// - Parameters:
  ///   - type: The service's type; it may be left out where the compiler can infer it.
  ///   - name: The registration's name, if it has one.
  /// - Returns: The handle.
  /// - Throws: ``DeferredError/Code/missingService`` (with the closest registered names) if
  ///   nothing is registered for the key; ``DeferredError/Code/shutDown`` if the container was
  ///   shut down.
  public func handle<Value: Sendable>(
    _ type: Value.Type = Value.self, name: String? = nil
  ) throws(DeferredError) -> ServiceHandle<Value> {
    try handle(for: ServiceKey<Value>(name: name))
  }

  /// Returns a handle to the service registered for `key`: looked up now, built when first
  /// read.
  ///
  /// - Parameter key: The service's key.
  /// - Returns: The handle.
  /// - Throws: As ``handle(_:name:)``.
  public func handle<Value: Sendable>(
    for key: ServiceKey<Value>
  ) throws(DeferredError) -> ServiceHandle<Value> {
    guard let node = lookup(ObjectIdentifier(Value.self), key.name, key.nameHash) else {
      throw missing(key.erased, chain: BuildContext.current.chain)
    }
    node.wasResolved.set()
    return ServiceHandle(container: self, node: node)
  }
}
