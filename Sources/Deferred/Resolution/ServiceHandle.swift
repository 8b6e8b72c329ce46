/// A typed reference to one service of one container, looked up once: for code that reads a
/// service in a hot loop, or keeps it in a view model.
///
/// Make it with ``Container/handle(_:name:)`` or ``Container/handle(for:)``. It holds the
/// service's registration, so reading a built singleton is a lock-free load: no lookup, no
/// allocation. Otherwise it resolves the service as ``Container/resolve(_:)->Value`` does.
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
/// A handle reads what its container resolves:
/// - From a child container: the child's override, or its copy of a singleton built with one.
/// - A registration replaced (`replacing: true`) after the handle was made was never built:
///   the handle resolves the replacement by key.
/// - A transient service is made anew on every read; once the services it declares are built,
///   its factory is called with them at once, with no lookup and no walk of the graph.
/// - Once the container (or the owner of an inherited registration) is shut down, every read
///   throws ``DeferredError/Code/shutDown``.
///
/// Making a handle counts as handing the service out (it is not reported as warmed up for
/// nothing). A handle keeps its container alive; it is a small `Sendable` value.
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
  /// - Returns: The service.
  /// - Throws: ``DeferredError``, as ``Container/resolve(_:)->Value``; also for an `async`
  ///   service not built yet (use ``awaitService(isolation:)``), or once the container is shut
  ///   down.
  @inlinable
  public func resolve() throws(DeferredError) -> Value {
    if let object = node.publishedObject(for: container) {
      return valueOfObject(object, as: Value.self)
    }
    return try resolveSlow()
  }

  /// Returns the service, or stops the program with the error's message, as
  /// ``Container/require(_:name:)``.
  ///
  /// - Returns: The service.
  @inlinable
  public func require() -> Value {
    if let object = node.publishedObject(for: container) {
      return valueOfObject(object, as: Value.self)
    }
    return requireSlow()
  }

  /// Calls `body` with the service, read in place: for a large value type, whose copy would
  /// cost more than the read. For a class, ``resolve()`` is as quick: it only retains the
  /// object. A service that is not a built singleton is resolved as ``resolve()`` resolves it.
  ///
  /// ```swift
  /// let clock = try container.handle(Clock.self)
  /// for frame in frames { try clock.withValue { render(frame, at: $0.now) } }
  /// ```
  ///
  /// `body` does not throw, so the call throws only the resolve's typed error; use
  /// ``resolve()`` where the work throws.
  ///
  /// - Parameter body: What to do with the service; it must not keep it beyond the call.
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

  /// The part of ``withValue(_:)`` that is not inlined, specialised in the caller's module.
  @inlinable @inline(never)
  func withValueSlow<Output>(_ body: (Value) -> Output) throws(DeferredError) -> Output {
    body(try resolveSlow())
  }

  /// Returns the service, suspending while it is built; blocks no thread. As
  /// ``Container/awaitService(_:isolation:)``, the way to read an `async` service not built yet.
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

  /// ``resolve()`` of a service it cannot read at once: a transient made at once, or by key.
  @inlinable
  func resolveSlow() throws(DeferredError) -> Value {
    if let value = try madeAtOnce() { return value }
    return try resolveByKey()
  }

  /// A value of a transient service made at once (``AnyNode/makesAtOnce``), or `nil`.
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
  /// The published value, if neither `container` nor the node's owner is shut down.
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
  /// when first read (``ServiceHandle``).
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
    guard let node = findNode(for: key) else {
      throw missing(key.erased, chain: BuildContext.current.chain)
    }
    node.wasResolved.set()
    return ServiceHandle(container: self, node: node)
  }
}
