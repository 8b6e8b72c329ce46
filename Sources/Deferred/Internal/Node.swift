import Dispatch
import Synchronization

/// The state of one singleton in one container.
///
/// `idle → building(latch) → ready`, or back to `idle` when the build fails (the next resolve
/// tries again). Transitions happen under the node's own lock; factories never run under it.
enum NodeState {
  case idle(attempts: Int)
  case building(BuildLatch)
  case ready(attempts: Int)
}

/// What a context gets when it asks to build a node.
enum Claim {
  /// Built already.
  case ready
  /// This context now builds it, and must finish the latch.
  case claimed(BuildLatch)
  /// Another context is building it.
  case busy(BuildLatch)
  /// This same context is building it: a dependency cycle.
  case ownedBySelf
}

/// A registration in a container, with its state: the type-erased part.
///
/// The resolve hot path reads only ``storage``: a built singleton's value, published once with
/// release ordering and read with acquire ordering, so resolving a built service takes no lock.
class AnyNode: @unchecked Sendable {
  let key: AnyServiceKey
  let scope: Scope
  let priority: Priority
  /// The dependencies the factory declares by its parameters, or `nil` for a factory that
  /// resolves what it needs itself (its edges are then observed while it runs).
  let dependencies: [AnyServiceKey]?
  /// The container whose registrations the factory's dependencies come from.
  unowned let owner: Container
  /// Whether the factory is `async`: such a service is resolved only with `await`.
  let isAsync: Bool

  let storage = Atomic<UnsafeMutableRawPointer?>(nil)
  /// Set the first time the built value is handed out: a service built in the background and
  /// never handed out was warmed up for nothing.
  let wasResolved = Atomic<Bool>(false)
  let state = Locked<NodeState>(.idle(attempts: 0))
  private let observedEdges = Locked<[AnyServiceKey]>([])

  init(
    key: AnyServiceKey, scope: Scope, priority: Priority, dependencies: [AnyServiceKey]?,
    owner: Container, isAsync: Bool
  ) {
    self.isAsync = isAsync
    self.key = key
    self.scope = scope
    self.priority = priority
    self.dependencies = dependencies
    self.owner = owner
  }

  /// The dependencies known so far: declared ones, or those observed in past builds.
  var knownDependencies: [AnyServiceKey] {
    dependencies ?? observedEdges.withLock { $0 }
  }

  func observe(_ dependency: AnyServiceKey) {
    observedEdges.withLock { edges in
      if !edges.contains(dependency) { edges.append(dependency) }
    }
  }

  var isReady: Bool { storage.load(ordering: .acquiring) != nil }

  /// The latch of the build under way, if any.
  func currentLatch() -> BuildLatch? {
    state.withLock {
      if case .building(let latch) = $0 { return latch }
      return nil
    }
  }

  func claim(_ context: BuildContext) -> Claim {
    state.withLock { state in
      switch state {
      case .ready:
        return .ready
      case .idle(let attempts):
        let latch = BuildLatch(owner: context, attempt: attempts + 1)
        state = .building(latch)
        return .claimed(latch)
      case .building(let latch):
        return latch.owner === context ? .ownedBySelf : .busy(latch)
      }
    }
  }

  /// Ends a build that failed: the node goes back to idle so that the next resolve tries again.
  func fail(_ latch: BuildLatch, _ error: DeferredError) {
    state.withLock { $0 = .idle(attempts: latch.attempt) }
    latch.finish(.failed(error))
  }

  /// Runs the factory and publishes the value; on failure, fails the latch and throws.
  func build(_ context: BuildContext, _ latch: BuildLatch) throws(DeferredError) {
    fatalError("abstract")
  }

  /// Runs the factory (async or not) and publishes the value; on failure, fails the latch.
  func buildAsync(_ context: BuildContext, _ latch: BuildLatch) async throws(DeferredError) {
    fatalError("abstract")
  }

  /// A fresh node for the same registration, owned by `container` (a child that must build it
  /// anew because it depends on something the child overrides).
  func copy(owner container: Container) -> AnyNode {
    fatalError("abstract")
  }
}

/// How a registration makes its value.
enum Factory<Value: Sendable>: Sendable {
  case sync(@Sendable (borrowing Resolver) throws -> Value)
  case async(@Sendable (AsyncResolver) async throws -> Value)
}

/// A registration of a service of type `Value`.
final class Node<Value: Sendable>: AnyNode, @unchecked Sendable {
  let factory: Factory<Value>
  /// Work handed to the service before it was built, delivered once it is.
  private let pending = Locked<[(queue: DispatchQueue, work: @Sendable (Value) -> Void)]>([])

  init(
    key: AnyServiceKey, scope: Scope, priority: Priority, dependencies: [AnyServiceKey]?,
    owner: Container, factory: Factory<Value>
  ) {
    self.factory = factory
    var isAsync = false
    if case .async = factory { isAsync = true }
    super.init(
      key: key, scope: scope, priority: priority, dependencies: dependencies, owner: owner,
      isAsync: isAsync)
  }

  deinit {
    if let raw = storage.load(ordering: .acquiring) {
      raw.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
      raw.deallocate()
    }
  }

  /// The value, once built.
  @inline(__always)
  var readyValue: Value? {
    guard let raw = storage.load(ordering: .acquiring) else { return nil }
    return raw.assumingMemoryBound(to: Value.self).pointee
  }

  /// Runs a synchronous factory on `context`, whose chain ends with this service.
  func make(_ context: BuildContext) throws(DeferredError) -> Value {
    guard case .sync(let factory) = factory else {
      throw DeferredError(.asyncService, key: key, chain: context.chain)
    }
    let resolver = Resolver(container: owner, context: context, dependent: self)
    do {
      return try factory(resolver)
    } catch let error as DeferredError {
      throw error
    } catch {
      throw DeferredError(.factoryFailed, key: key, chain: context.chain, underlying: error)
    }
  }

  /// Runs the factory, sync or async, on `context`, whose chain ends with this service.
  func makeAsync(_ context: BuildContext) async throws(DeferredError) -> Value {
    guard case .async(let factory) = factory else { return try make(context) }
    do {
      return try await factory(AsyncResolver(container: owner, context: context))
    } catch let error as DeferredError {
      throw error
    } catch {
      throw DeferredError(.factoryFailed, key: key, chain: context.chain, underlying: error)
    }
  }

  override func build(_ context: BuildContext, _ latch: BuildLatch) throws(DeferredError) {
    let span = owner.recorder.begin(context)
    let value: Value
    do {
      value = try make(context)
    } catch {
      owner.recorder.end(span, self, context, attempt: latch.attempt, outcome: .failed(error))
      fail(latch, error)
      throw error
    }
    owner.recorder.end(span, self, context, attempt: latch.attempt, outcome: .built)
    publish(value, latch)
  }

  override func buildAsync(_ context: BuildContext, _ latch: BuildLatch) async throws(DeferredError)
  {
    let span = owner.recorder.begin(context)
    let value: Value
    do {
      value = try await makeAsync(context)
    } catch {
      owner.recorder.end(span, self, context, attempt: latch.attempt, outcome: .failed(error))
      fail(latch, error)
      throw error
    }
    owner.recorder.end(span, self, context, attempt: latch.attempt, outcome: .built)
    publish(value, latch)
  }

  private func publish(_ value: Value, _ latch: BuildLatch) {
    let raw = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    raw.initialize(to: value)
    storage.store(UnsafeMutableRawPointer(raw), ordering: .releasing)
    state.withLock { $0 = .ready(attempts: latch.attempt) }
    latch.finish(.built)
    pending.withLock { pending in
      for item in pending { item.queue.async { item.work(value) } }
      pending = []
    }
  }

  /// Hands `work` the value on `queue` once it is built; at once if it is.
  func whenReady(on queue: DispatchQueue, _ work: @escaping @Sendable (Value) -> Void) {
    pending.withLock { pending in
      if pending.isEmpty, let value = readyValue {
        queue.async { work(value) }
      } else {
        pending.append((queue, work))
      }
    }
  }

  override func copy(owner container: Container) -> AnyNode {
    Node(
      key: key, scope: scope, priority: priority, dependencies: dependencies, owner: container,
      factory: factory)
  }

  /// Resolves this node when it is not built yet, or is transient.
  func resolveSlow(_ context: BuildContext) throws(DeferredError) -> Value {
    try ensureReady(context)
    switch scope {
    case .singleton:
      guard let value = readyValue else {
        preconditionFailure("\(key) is ready but holds no value")
      }
      return value
    case .transient:
      context.chain.append(key)
      defer { context.chain.removeLast() }
      let span = owner.recorder.begin(context)
      let result = Result { () throws(DeferredError) in try make(context) }
      return try recordTransient(span, context, result)
    }
  }

  /// Records one build of a transient service and hands on its result.
  private func recordTransient(
    _ span: Span?, _ context: BuildContext, _ result: Result<Value, DeferredError>
  ) throws(DeferredError) -> Value {
    switch result {
    case .success(let value):
      owner.recorder.end(span, self, context, attempt: 0, outcome: .built)
      return value
    case .failure(let error):
      owner.recorder.end(span, self, context, attempt: 0, outcome: .failed(error))
      throw error
    }
  }

  /// Resolves this node from async code when it is not built yet, or is transient.
  func resolveSlowAsync(_ context: BuildContext) async throws(DeferredError) -> Value {
    try await ensureReadyAsync(context)
    switch scope {
    case .singleton:
      guard let value = readyValue else {
        preconditionFailure("\(key) is ready but holds no value")
      }
      return value
    case .transient:
      context.chain.append(key)
      defer { context.chain.removeLast() }
      let span = owner.recorder.begin(context)
      let result: Result<Value, DeferredError>
      do throws(DeferredError) {
        result = .success(try await makeAsync(context))
      } catch {
        result = .failure(error)
      }
      return try recordTransient(span, context, result)
    }
  }
}
