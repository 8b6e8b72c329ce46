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

/// A registration in a container, with its state.
///
/// The resolve hot path reads only ``storage``: a built singleton's value, published once with
/// release ordering and read with acquire ordering, so resolving a built service takes no lock.
///
/// One class for every service, not a generic class per service type: the Swift runtime makes
/// the metadata of a generic class for each type it is used with (thousands of instructions
/// the first time, in a process that has just started) and looks it up in a hash table each
/// time unspecialised code needs it. A node knows its value's type only as `key.type`; the
/// factory writes the value to memory the node gives it, and generic callers read it back.
final class AnyNode: @unchecked Sendable {
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
  let factory: Factory

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
    owner: Container, factory: Factory
  ) {
    self.factory = factory
    if case .async = factory { isAsync = true } else { isAsync = false }
    self.key = key
    self.scope = scope
    self.priority = priority
    self.dependencies = dependencies
    self.owner = owner
  }

  deinit {
    destroyValue()
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
      guard let node = owner.lookup(dependency.typeID, dependency.name),
        node._withUnsafeGuaranteedRef({ $0.scope == .singleton && $0.isReady })
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

}

/// How a registration makes its value: it writes the value, of the registered type, to the
/// memory it is given.
enum Factory: Sendable {
  case sync(@Sendable (borrowing Resolver, UnsafeMutableRawPointer) throws -> Void)
  case async(@Sendable (AsyncResolver, UnsafeMutableRawPointer) async throws -> Void)

  /// A factory of `Value`s from a closure that resolves what it needs itself. (The forms whose
  /// parameters are the dependencies write the value themselves: one closure, not two.)
  static func producing<Value: Sendable>(
    _ make: @escaping @Sendable (borrowing Resolver) throws -> Value
  ) -> Factory {
    .sync { resolver, destination in
      destination.initializeMemory(as: Value.self, to: try make(resolver))
    }
  }
}

extension AnyNode {
  /// Memory for one value of the registered type.
  private func allocateValue() -> UnsafeMutableRawPointer {
    func allocate<Value>(_: Value.Type) -> UnsafeMutableRawPointer {
      UnsafeMutableRawPointer(UnsafeMutablePointer<Value>.allocate(capacity: 1))
    }
    return allocate(key.type)
  }

  /// Destroys the built value, if there is one, and frees its memory.
  func destroyValue() {
    guard let raw = storage.load(ordering: .acquiring) else { return }
    func destroy<Value>(_: Value.Type) {
      raw.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
    }
    destroy(key.type)
    raw.deallocate()
  }

  /// The built value, read as `Value` (the registered type).
  @inline(__always)
  func readyValue<Value>(as _: Value.Type) -> Value {
    guard let raw = storage.load(ordering: .acquiring) else {
      preconditionFailure("\(key) is ready but holds no value")
    }
    return raw.assumingMemoryBound(to: Value.self).pointee
  }

  /// Runs a synchronous factory on `context`, whose chain ends with this service, writing the
  /// value to `destination`.
  func make(_ context: BuildContext, into destination: UnsafeMutableRawPointer)
    throws(DeferredError)
  {
    guard case .sync(let factory) = factory else {
      throw DeferredError(.asyncService, key: key, chain: context.chain)
    }
    let resolver = Resolver(container: owner, context: context, dependent: self)
    do {
      try factory(resolver, destination)
    } catch let error as DeferredError {
      throw error
    } catch {
      throw DeferredError(.factoryFailed, key: key, chain: context.chain, underlying: error)
    }
  }

  /// Runs the factory, sync or async, on `context`, whose chain ends with this service,
  /// writing the value to `destination`.
  func makeAsync(_ context: BuildContext, into destination: UnsafeMutableRawPointer)
    async throws(DeferredError)
  {
    guard case .async(let factory) = factory else {
      return try make(context, into: destination)
    }
    do {
      try await factory(AsyncResolver(container: owner, context: context), destination)
    } catch let error as DeferredError {
      throw error
    } catch {
      throw DeferredError(.factoryFailed, key: key, chain: context.chain, underlying: error)
    }
  }

  /// Runs the factory and publishes the value; on failure, fails the build and throws.
  func build(_ context: BuildContext, attempt: Int) throws(DeferredError) {
    let span = owner.recorder.begin(context)
    let value = allocateValue()
    do {
      try make(context, into: value)
    } catch {
      value.deallocate()
      owner.recorder.end(span, self, context, attempt: attempt, outcome: .failed(error))
      fail(attempt: attempt, error)
      throw error
    }
    owner.recorder.end(span, self, context, attempt: attempt, outcome: .built)
    publish(value, attempt: attempt)
  }

  /// Runs the factory (async or not) and publishes the value; on failure, fails the build.
  func buildAsync(_ context: BuildContext, attempt: Int) async throws(DeferredError) {
    let span = owner.recorder.begin(context)
    let value = allocateValue()
    do {
      try await makeAsync(context, into: value)
    } catch {
      value.deallocate()
      owner.recorder.end(span, self, context, attempt: attempt, outcome: .failed(error))
      fail(attempt: attempt, error)
      throw error
    }
    owner.recorder.end(span, self, context, attempt: attempt, outcome: .built)
    publish(value, attempt: attempt)
  }

  private func publish(_ value: UnsafeMutableRawPointer, attempt: Int) {
    storage.store(value, ordering: .releasing)
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
  func whenReady<Value: Sendable>(
    on queue: DispatchQueue, _ work: @escaping @Sendable (Value) -> Void
  ) {
    let deliver: @Sendable () -> Void = { [self] in
      // Handed out: a service warmed up for this work was not warmed up for nothing.
      wasResolved.store(true, ordering: .relaxed)
      work(readyValue(as: Value.self))
    }
    withState { state in
      guard case .ready = state.phase, state.pending.isEmpty else {
        state.pending.append((queue, deliver))
        return
      }
      queue.async(execute: deliver)
    }
  }

  /// A fresh node for the same registration, owned by `container` (a child that must build it
  /// anew because it depends on something the child overrides).
  func copy(owner container: Container) -> AnyNode {
    AnyNode(
      key: key, scope: scope, priority: priority, dependencies: dependencies, owner: container,
      factory: factory)
  }

  /// Resolves this node, of type `Value`, when it is not built yet, or is transient.
  func resolveSlow<Value>(_ context: BuildContext, as _: Value.Type) throws(DeferredError)
    -> Value
  {
    switch scope {
    case .singleton:
      try ensureReady(context)
      return readyValue(as: Value.self)
    case .transient:
      // A transient whose declared dependencies are all built needs no walk of the graph.
      if !dependenciesAreBuilt || context.chain.contains(key) { try ensureReady(context) }
      context.chain.append(key)
      let span = owner.recorder.begin(context, transient: true)
      defer {
        owner.recorder.endTransient(span, self, context)
        context.chain.removeLast()
      }
      let value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
      defer { value.deallocate() }
      try make(context, into: value)
      return value.move()
    }
  }

  /// Resolves this node, of type `Value`, from async code when it is not built yet, or is
  /// transient.
  func resolveSlowAsync<Value>(_ context: BuildContext, as _: Value.Type)
    async throws(DeferredError) -> Value
  {
    try await ensureReadyAsync(context)
    switch scope {
    case .singleton:
      return readyValue(as: Value.self)
    case .transient:
      context.chain.append(key)
      let span = owner.recorder.begin(context, transient: true)
      defer {
        owner.recorder.endTransient(span, self, context)
        context.chain.removeLast()
      }
      let value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
      defer { value.deallocate() }
      try await makeAsync(context, into: value)
      return value.move()
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
