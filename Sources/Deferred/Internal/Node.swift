import Dispatch
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where one singleton of one container is.
///
/// `idle → building → ready`, or back to `idle` when the build fails (the next resolve tries
/// again). Transitions happen under the node's own lock; factories never run under it.
enum Phase {
  case idle(attempts: Int)
  case building(Building)
  case ready(attempts: Int)
}

/// A build under way: who runs it, which attempt it is, and the latch other contexts wait on,
/// made by the first of them (most builds have no waiter, and allocate none).
struct Building {
  let owner: BuildContext
  let attempt: Int
  var latch: BuildLatch?
}

/// Everything of a node behind its one lock.
struct NodeState {
  var phase = Phase.idle(attempts: 0)
  /// What a factory that resolves its own dependencies resolved in past builds.
  var observed: [AnyServiceKey] = []
  /// Work handed to the service before it was built, delivered once it is.
  var pending: [(queue: DispatchQueue, work: @Sendable () -> Void)] = []
}

/// What a context gets when it asks to build a node.
enum Claim {
  /// Built already.
  case ready
  /// This context now builds it (this attempt), and must publish or fail it.
  case claimed(attempt: Int)
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
  /// Unowned and unchecked: a node lives in its owner's registry and tables (and in those of the
  /// owner's children, which keep the owner alive), and nothing reads `owner` once it is gone.
  unowned(unsafe) let owner: Container
  /// Whether the factory is `async`: such a service is resolved only with `await`.
  let isAsync: Bool

  let storage = Atomic<UnsafeMutableRawPointer?>(nil)
  /// Set the first time the built value is handed out: a service built in the background and
  /// never handed out was warmed up for nothing.
  let wasResolved = Atomic<Bool>(false)
  /// The node's state, guarded by its lock (``NodeLocks``); latches of its builds are guarded
  /// by it too. Never touched without the lock, so the runtime's exclusivity checks are off.
  @exclusivity(unchecked) private var lockedState = NodeState()

  /// Runs `body` with the node's state, under its lock.
  @inline(__always)
  func withState<Result, Failure: Error>(
    _ body: (inout NodeState) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let mutex = NodeLocks.mutex(for: self)
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&lockedState)
  }

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
    dependencies ?? withState { $0.observed }
  }

  func observe(_ dependency: AnyServiceKey) {
    withState { state in
      if !state.observed.contains(dependency) { state.observed.append(dependency) }
    }
  }

  var isReady: Bool { storage.load(ordering: .acquiring) != nil }

  /// Whether this node is synchronous and declares its dependencies, and every one of them is
  /// a built singleton.
  var dependenciesAreBuilt: Bool {
    guard !isAsync, let dependencies else { return false }
    for dependency in dependencies {
      guard let node = owner.node(for: dependency), node.scope == .singleton, node.isReady
      else { return false }
    }
    return true
  }

  /// The context building this node, if a build is under way.
  func currentBuilder() -> BuildContext? {
    withState {
      if case .building(let building) = $0.phase { return building.owner }
      return nil
    }
  }

  func claim(_ context: BuildContext) -> Claim {
    withState { state in
      switch state.phase {
      case .ready:
        return .ready
      case .idle(let attempts):
        state.phase = .building(Building(owner: context, attempt: attempts + 1))
        return .claimed(attempt: attempts + 1)
      case .building(var building):
        if building.owner === context { return .ownedBySelf }
        if let latch = building.latch { return .busy(latch) }
        let latch = BuildLatch(owner: building.owner, attempt: building.attempt)
        building.latch = latch
        state.phase = .building(building)
        return .busy(latch)
      }
    }
  }

  /// Ends the build under way, under the lock: moves to `phase` and finishes the latch of
  /// whoever waits, if anyone does.
  func finish(_ outcome: BuildLatch.Outcome, _ phase: Phase, in state: inout NodeState)
    -> DispatchGroup?
  {
    guard case .building(let building) = state.phase else {
      preconditionFailure("\(key) finished a build it was not running")
    }
    state.phase = phase
    return building.latch?.finish(outcome)
  }

  /// Ends a build that failed: the node goes back to idle so that the next resolve tries again.
  func fail(attempt: Int, _ error: DeferredError) {
    let group = withState { state in
      finish(.failed(error), .idle(attempts: attempt), in: &state)
    }
    group?.leave()
  }

  /// Runs the factory and publishes the value; on failure, fails the build and throws.
  func build(_ context: BuildContext, attempt: Int) throws(DeferredError) {
    fatalError("abstract")
  }

  /// Runs the factory (async or not) and publishes the value; on failure, fails the build.
  func buildAsync(_ context: BuildContext, attempt: Int) async throws(DeferredError) {
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

  override func build(_ context: BuildContext, attempt: Int) throws(DeferredError) {
    let span = owner.recorder.begin(context)
    let value: Value
    do {
      value = try make(context)
    } catch {
      owner.recorder.end(span, self, context, attempt: attempt, outcome: .failed(error))
      fail(attempt: attempt, error)
      throw error
    }
    owner.recorder.end(span, self, context, attempt: attempt, outcome: .built)
    publish(value, attempt: attempt)
  }

  override func buildAsync(_ context: BuildContext, attempt: Int) async throws(DeferredError) {
    let span = owner.recorder.begin(context)
    let value: Value
    do {
      value = try await makeAsync(context)
    } catch {
      owner.recorder.end(span, self, context, attempt: attempt, outcome: .failed(error))
      fail(attempt: attempt, error)
      throw error
    }
    owner.recorder.end(span, self, context, attempt: attempt, outcome: .built)
    publish(value, attempt: attempt)
  }

  private func publish(_ value: Value, attempt: Int) {
    let raw = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    raw.initialize(to: value)
    storage.store(UnsafeMutableRawPointer(raw), ordering: .releasing)
    let group = withState { state in
      // Handed to their queues under the lock (no user code runs here), so that work handed
      // over later, which sees `ready` and goes straight to its queue, stays behind them.
      if !state.pending.isEmpty {
        for item in state.pending { item.queue.async(execute: item.work) }
        state.pending = []
      }
      return finish(.built, .ready(attempts: attempt), in: &state)
    }
    group?.leave()
  }

  /// Hands `work` the value on `queue` once it is built; at once if it is.
  func whenReady(on queue: DispatchQueue, _ work: @escaping @Sendable (Value) -> Void) {
    let deliver: @Sendable () -> Void = { [self] in
      guard let value = readyValue else { preconditionFailure("\(key) delivered before built") }
      work(value)
    }
    withState { state in
      guard case .ready = state.phase, state.pending.isEmpty else {
        state.pending.append((queue, deliver))
        return
      }
      queue.async(execute: deliver)
    }
  }

  override func copy(owner container: Container) -> AnyNode {
    Node(
      key: key, scope: scope, priority: priority, dependencies: dependencies, owner: container,
      factory: factory)
  }

  /// Resolves this node when it is not built yet, or is transient.
  func resolveSlow(_ context: BuildContext) throws(DeferredError) -> Value {
    switch scope {
    case .singleton:
      try ensureReady(context)
      guard let value = readyValue else {
        preconditionFailure("\(key) is ready but holds no value")
      }
      return value
    case .transient:
      // A transient whose declared dependencies are all built needs no walk of the graph.
      if !dependenciesAreBuilt || context.chain.contains(key) { try ensureReady(context) }
      context.chain.append(key)
      let span = owner.recorder.begin(context, transient: true)
      defer {
        owner.recorder.endTransient(span, self, context)
        context.chain.removeLast()
      }
      return try make(context)
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
      let span = owner.recorder.begin(context, transient: true)
      defer {
        owner.recorder.endTransient(span, self, context)
        context.chain.removeLast()
      }
      return try await makeAsync(context)
    }
  }
}

/// The locks of every node: a fixed set of mutexes, a node's picked by its address.
///
/// A lock of its own would cost each node an allocation on its first build, or on
/// registration; nodes share these instead. They are held for a few field updates, never
/// around user code or another node's lock, so sharing one costs nothing but a rare brief wait.
enum NodeLocks {
  private static let count = 64
  /// Each mutex on a cache line of its own, so that threads taking different locks do not
  /// slow each other down.
  private static let stride = max(64, MemoryLayout<pthread_mutex_t>.stride)
  nonisolated(unsafe) private static let mutexes: UnsafeMutableRawPointer = {
    let mutexes = UnsafeMutableRawPointer.allocate(byteCount: count * stride, alignment: 64)
    for index in 0..<count {
      let mutex = (mutexes + index * stride).bindMemory(to: pthread_mutex_t.self, capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      initializeMutex(mutex)
    }
    return mutexes
  }()

  @inline(__always)
  static func mutex(for node: AnyNode) -> UnsafeMutablePointer<pthread_mutex_t> {
    // Objects are 16-byte aligned: the bits above those pick the lock.
    let address = UInt(bitPattern: ObjectIdentifier(node))
    let index = Int((address >> 4) % UInt(count))
    return (mutexes + index * stride).assumingMemoryBound(to: pthread_mutex_t.self)
  }
}
