import Dispatch
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A registration in a container, with its state.
///
/// The resolve hot path reads only ``value``: a built singleton's value, published once with
/// release ordering and read with acquire ordering, so resolving a built service takes no lock.
/// Everything else of the node's lifecycle is its ``SlotState``, behind its lock.
///
/// One class for every service, not a generic class per service type: the Swift runtime makes
/// the metadata of a generic class for each type it is used with (thousands of instructions
/// the first time, in a process that has just started) and looks it up in a hash table each
/// time unspecialised code needs it. A node knows its value's type only as `key.type`; the
/// factory writes the value to memory the node's ``ValueCell`` gives it.
///
/// Safety: `@unchecked Sendable` because its one mutable field, the slot state, is touched only
/// under the node's lock, and `owner` is unowned without checks (Docs/Design.md, "Memory
/// safety").
@usableFromInline
final class AnyNode: @unchecked Sendable {
  // The fields are in this order so that they pack: the words first, then the 17-byte
  // factory, the scope's name, the 5-byte priority and the one-byte fields in the bytes they
  // leave, and the 33-byte slot state last (169 bytes, the value cell's two inline words and
  // the inlined resolve's word beside).
  // Every registration pays for each byte a node has.
  let key: AnyServiceKey
  /// The dependencies the factory declares by its parameters, or `nil` for a factory that
  /// resolves what it needs itself (its edges are then observed while it runs).
  let dependencies: DependencyList?
  /// The container whose registrations the factory's dependencies come from.
  /// Unowned and unchecked: a node lives in its owner's registry and tables (and in those of the
  /// owner's children, which keep the owner alive), and nothing reads `owner` once it is gone.
  @usableFromInline unowned(unsafe) let owner: Container
  /// The built singleton.
  @usableFromInline let value: ValueCell
  /// A transient service's recorded makings (`nil` for any other, or with recording off).
  let transientTally: TransientTally?
  let factory: Factory
  /// A named scope's name, as its index in ``ScopeNames`` (0 for any other scope): four bytes
  /// where the scope was sixteen, beside its kind.
  private let scopeName: UInt32
  /// The key's type (its metadata's address) once the app has been handed the built value of
  /// this unnamed singleton, and 0 before (always 0 for a named key): what the inlined resolve
  /// compares, one word for "the node of the type asked for, built, and marked resolved".
  /// Stored with release ordering after the value is published and ``wasResolved`` is set;
  /// read with acquire ordering (``Container/unnamedValue(_:)``).
  @usableFromInline let resolvedType = Atomic<UInt>(0)
  let priority: Priority
  /// The scope's kind, which the build paths test.
  let kind: ScopeKind
  /// Whether the factory is `async`: such a service is resolved only with `await`.
  let isAsync: Bool
  /// Whether the factory is isolated to the main actor: it runs there, and deferred builds of
  /// it go to the main-thread lane.
  let isMainActor: Bool
  /// ``wasResolved``, ``wasNeeded``, ``holdsValue``, whether a build owns the value cell's
  /// inline storage (``valueDestination()``), whether the declared dependencies are built
  /// (``dependenciesAreBuilt``) and whether the registration was replaced, a bit each: one
  /// byte, not six.
  fileprivate let flags = Atomic<UInt8>(0)
  /// Guarded by the node's lock (``NodeLocks``), like the latches of its builds. Never touched
  /// without the lock, so the runtime's exclusivity checks are off.
  @exclusivity(unchecked) private var slot = SlotState()

  /// Set the first time the built value is handed out to the app (a resolve from outside the
  /// container's factories, or a handle): a service built in the background and never handed
  /// out, to the app or to a factory, was warmed up for nothing.
  var wasResolved: Flag { Flag(node: .passUnretained(self), bit: 1) }
  /// Set the first time a factory of the container gets the value (through its resolver): what
  /// the app used needs it, but the app did not ask for it itself.
  var wasNeeded: Flag { Flag(node: .passUnretained(self), bit: 2) }
  /// Set when a build of this singleton found that it depends on a named scope: its values are
  /// then held, one per generation, never published in ``value`` (which cannot be dropped).
  var holdsValue: Flag { Flag(node: .passUnretained(self), bit: 4) }

  /// One of a node's flags: a bit of its ``flags``, read and written with relaxed ordering
  /// (the orderings asked for are at most that). The node unretained: a flag is made from
  /// the node and used at once (an `unowned(unsafe)` field read was a retain and a release on
  /// every use, a factory's read of a built dependency included).
  struct Flag {
    let node: Unmanaged<AnyNode>
    let bit: UInt8

    @inline(__always)
    func load(ordering _: AtomicLoadOrdering) -> Bool {
      node._withUnsafeGuaranteedRef { $0.flags.load(ordering: .relaxed) } & bit != 0
    }

    @inline(__always)
    func store(_ value: Bool, ordering _: AtomicStoreOrdering) {
      node._withUnsafeGuaranteedRef { node in
        if value {
          _ = node.flags.bitwiseOr(bit, ordering: .relaxed)
        } else {
          _ = node.flags.bitwiseAnd(~bit, ordering: .relaxed)
        }
      }
    }
  }

  /// The bit of ``flags`` set while a build owns the value cell's inline storage, and for good
  /// once a value is published there.
  private static let valueStorageBit: UInt8 = 8
  /// The bit of ``flags`` set, for good, once every dependency this synchronous node declares
  /// was found a built singleton (``dependenciesAreBuilt``): a published value is never
  /// unpublished, and a built registration is never replaced, so it stays true.
  private static let dependenciesBuiltBit: UInt8 = 16
  /// The bit of ``flags`` set, for good, when the registration is replaced
  /// (``retire(replacedBy:)``): a handle that holds it then resolves by key.
  private static let retiredBit: UInt8 = 32

  /// Memory for the value a build of this node makes: the value cell's inline storage for a
  /// singleton whose value fits and is not held (published there, it needs no allocation),
  /// if no other build owns it (a build gone stale in a reset may still run); otherwise memory
  /// of its own.
  @inline(__always)
  func valueDestination() -> ValueDestination {
    if kind == .singleton, value.fitsInline, !holdsValue.load(ordering: .relaxed),
      flags.bitwiseOr(Self.valueStorageBit, ordering: .acquiring).oldValue
        & Self.valueStorageBit == 0
    {
      return value.inlineDestination()
    }
    return value.destination()
  }

  /// Gives back the memory of a build's destination that holds no value (its factory threw).
  func discard(_ destination: consuming ValueDestination) {
    if value.holdsInline(destination) {
      flags.bitwiseAnd(~Self.valueStorageBit, ordering: .releasing)
    } else {
      destination.discard()
    }
  }

  /// A build's value in memory of its own, to be kept apart from the node (a box, a weak
  /// service's object): moved out of the inline storage, which is given back, if it is there.
  private func onHeap(_ destination: consuming ValueDestination) -> ValueDestination {
    guard value.holdsInline(destination) else { return destination }
    let moved = value.movedToHeap(destination)
    flags.bitwiseAnd(~Self.valueStorageBit, ordering: .releasing)
    return moved
  }

  /// Whether the value has been handed out to anyone: the app or a factory.
  var wasUsed: Bool {
    wasResolved.load(ordering: .relaxed) || wasNeeded.load(ordering: .relaxed)
  }

  /// Runs `body` with the node's state, under its lock.
  @inline(__always)
  func withState<Result, Failure: Error>(
    _ body: (inout SlotState) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try NodeLocks.mutex(for: self).withLock { () throws(Failure) -> Result in try body(&slot) }
  }

  init(
    key: AnyServiceKey, scope: Scope, priority: Priority, dependencies: DependencyList?,
    owner: Container, factory: Factory, isMainActor: Bool = false
  ) {
    self.factory = factory
    if case .async = factory { isAsync = true } else { isAsync = false }
    self.isMainActor = isMainActor
    self.key = key
    if case .named(let name) = scope {
      scopeName = ScopeNames.index(of: name)
    } else {
      scopeName = 0
    }
    self.kind = scope.kind
    transientTally = scope.kind == .transient ? owner.recorder.tally(for: key) : nil
    self.priority = priority
    self.dependencies = dependencies
    self.owner = owner
    self.value = ValueCell(type: key.type)
  }

  /// The registration's scope, made from its kind and, for a named scope, its name.
  var scope: Scope {
    switch kind {
    case .singleton: .singleton
    case .transient: .transient
    case .weak: .weak
    case .named: .named(ScopeNames.name(at: scopeName))
    }
  }

  deinit {
    value.destroyInlineValue()
  }

  /// The dependencies known so far: declared ones, or those observed in past builds.
  var knownDependencies: DependencyList {
    dependencies ?? DependencyList(withState { $0.observed })
  }

  func observe(_ dependency: AnyServiceKey) {
    withState { $0.observe(dependency) }
  }

  var isReady: Bool { value.isSet }

  /// Whether the service is built: published in its cell, or held (a weak one's object may be
  /// gone since).
  var isBuilt: Bool {
    isReady || ((kind.isHeld || holdsValue.load(ordering: .relaxed)) && withState { $0.isHeld })
  }

  /// Whether this node is synchronous and declares its dependencies, and every one of them is
  /// a built singleton. Once true, noted in a bit of ``flags``: it stays true (a published
  /// value stays published, a built registration cannot be replaced), and later calls read the
  /// bit instead of looking each dependency up.
  var dependenciesAreBuilt: Bool {
    if flags.load(ordering: .acquiring) & Self.dependenciesBuiltBit != 0 { return true }
    guard !isAsync, let dependencies else { return false }
    // The owner unretained: it outlives its nodes' builds (Docs/Design.md, "Memory safety").
    guard
      Unmanaged.passUnretained(owner)._withUnsafeGuaranteedRef({ $0.areBuilt(dependencies) })
    else { return false }
    // Released: whoever reads the bit with acquire ordering sees the values this thread saw.
    flags.bitwiseOr(Self.dependenciesBuiltBit, ordering: .releasing)
    return true
  }

  /// Whether a value of this transient service can be made at once: synchronous, not isolated
  /// to the main actor, every declared dependency a built singleton (as last seen: the bit is
  /// set by ``dependenciesAreBuilt``), and not replaced. One atomic load once it is.
  @inline(__always)
  var makesAtOnce: Bool {
    kind == .transient && !isMainActor
      && flags.load(ordering: .acquiring) & (Self.dependenciesBuiltBit | Self.retiredBit)
        == Self.dependenciesBuiltBit
  }

  /// Calls `body` with the owner's recorder, neither retained: the owner outlives every build
  /// and making of its nodes (Docs/Design.md, "Memory safety"), and keeps its recorder.
  @inline(__always)
  func withRecorder<Result>(_ body: (Recorder) -> Result) -> Result {
    Unmanaged.passUnretained(owner)._withUnsafeGuaranteedRef { body($0.recorder) }
  }

  /// The context building this node, if a build is under way.
  func currentBuilder() -> BuildContext? {
    withState { $0.builder }
  }

  func claim(_ context: BuildContext) -> SlotState.Claim {
    withState { $0.claim(by: context) }
  }

  /// Publishes or holds the value a build wrote, ends the build, wakes its waiters and hands
  /// queued work its value; returns the value if it is held.
  ///
  /// A weak service keeps only a weak reference to its object; a named-scope service, or a
  /// singleton whose dependencies include one (directly or through others), keeps its value in
  /// a box of this generation; any other singleton publishes it in ``value``, for lock-free
  /// reads, for good.
  @discardableResult
  func finish(_ destination: consuming ValueDestination, attempt: Int) -> Held? {
    let ending: SlotState.Ending
    switch kind {
    case .weak:
      let object = onHeap(destination).takeObject()
      ending = withState {
        $0.built(
          attempt: attempt, storing: .weak(WeakObject(object: object)), value: .object(object))
      }
    case .named:
      let box = ValueBox(onHeap(destination))
      ending = withState { $0.built(attempt: attempt, storing: .box(box), value: .box(box)) }
    case .singleton, .transient:
      // The named scopes' flag read here: no call while none is registered.
      if holdsValue.load(ordering: .relaxed)
        || (Container.namedScopesRegistered.load(ordering: .acquiring) && dependsOnNamedScope())
      {
        holdsValue.store(true, ordering: .relaxed)
        let box = ValueBox(onHeap(destination))
        ending = withState { $0.built(attempt: attempt, storing: .box(box), value: .box(box)) }
      } else {
        value.publish(destination)
        ending = withState { $0.built(attempt: attempt) }
      }
    }
    ending.wake?.leave()
    guard var batch = ending.work else { return ending.value }
    while !batch.isEmpty {
      for work in batch { work.deliver(self, ending.value) }
      batch = withState { $0.delivered() }
    }
    return ending.value
  }

  /// The held value of a built weak or named-scope service (or a singleton built with one),
  /// retained under the lock; `nil` for any other, or one not built: the resolve of a held
  /// service that is built takes this lock and no walk.
  @inline(__always)
  func heldValue() -> Held? {
    switch kind {
    case .transient: return nil
    case .singleton: if !holdsValue.load(ordering: .relaxed) { return nil }
    case .weak, .named: break
    }
    return withState { $0.heldValue }
  }

  /// Whether a value of this service, made now, was made with a named scope's value: one of
  /// its known dependencies is of a named scope, or holds its value because it was, or is a
  /// transient or weak service that depends on one. Skipped (one atomic load) while no named
  /// scope is registered.
  func dependsOnNamedScope() -> Bool {
    guard Container.namedScopesRegistered.load(ordering: .acquiring) else { return false }
    var seen: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
    var queue: [AnyNode] = [self]
    while let node = queue.popLast() {
      for key in node.knownDependencies {
        guard let dependency = node.owner.lookup(key)?.takeUnretainedValue() else { continue }
        switch dependency.kind {
        case .named: return true
        case .singleton:
          if dependency.holdsValue.load(ordering: .relaxed) { return true }
        case .transient, .weak:
          // Not kept (or kept weakly) with a mark of their own: what they were made with.
          if seen.insert(ObjectIdentifier(dependency)).inserted { queue.append(dependency) }
        }
      }
    }
    return false
  }

  /// Drops this service's held value and starts a new generation (a build under way goes
  /// stale); returns whether there was a value or a build to drop. The value is released
  /// here, outside the lock.
  func reset() -> Bool {
    var dropped = false
    let stored = withState { state in
      dropped = state.builder != nil || state.isHeld
      return state.reset()
    }
    _ = stored
    return dropped
  }

  /// Ends a build that failed: the node goes back to idle so that the next resolve tries again.
  func fail(attempt: Int, _ error: DeferredError) {
    withState { $0.failed(attempt: attempt, error) }?.leave()
  }

  /// Hands `work` the value on `queue` once it is built; at once if it is.
  func whenReady<Value: Sendable>(
    on queue: DispatchQueue, _ work: @escaping @Sendable (Value) -> Void
  ) {
    receive(
      [
        PendingWork(queue: queue) { node, held in
          // Handed out: a service warmed up for this work was not warmed up for nothing.
          node.wasResolved.store(true, ordering: .relaxed)
          if let held {
            work(held.read(as: Value.self))
          } else {
            work(node.value.read(as: Value.self))
          }
        }
      ], ahead: false)
  }

  private func receive(_ work: [PendingWork], ahead: Bool) {
    switch withState({ $0.receive(work, ahead: ahead) }) {
    case .queued: break
    case .now(let held): for item in work { item.deliver(self, held) }
    case .forward(let replacement): replacement.receive(work, ahead: ahead)
    }
  }

  /// Retires this registration in favour of `replacement`, if it was never built nor is being
  /// built, and hands it the work queued here. Returns whether it did.
  func retire(replacedBy replacement: AnyNode) -> Bool {
    // One node's lock at a time: the two may share a lock.
    guard let work = withState({ $0.retire(replacedBy: replacement) }) else { return false }
    flags.bitwiseOr(Self.retiredBit, ordering: .releasing)
    if !work.isEmpty { replacement.receive(work, ahead: true) }
    return true
  }

  /// A fresh node for the same registration, owned by `container` (a child that must build it
  /// anew because it depends on something the child overrides).
  func copy(owner container: Container) -> AnyNode {
    AnyNode(
      key: key, scope: scope, priority: priority, dependencies: dependencies, owner: container,
      factory: factory, isMainActor: isMainActor)
  }
}

extension Container {
  /// Whether every one of `keys` is a built singleton of this container (or its ancestors).
  fileprivate func areBuilt(_ keys: DependencyList) -> Bool {
    keys.allSatisfy { key in
      guard let node = lookup(key) else { return false }
      return node._withUnsafeGuaranteedRef { $0.isReady }
    }
  }
}

/// How a registration makes its value: it writes the value, of the registered type, to the
/// destination it is given.
@usableFromInline
enum Factory: Sendable {
  case sync(@Sendable (borrowing Resolver, borrowing ValueDestination) throws -> Void)
  /// A synchronous factory isolated to the main actor: run only there.
  case mainActor(
    @MainActor @Sendable (borrowing Resolver, borrowing ValueDestination) throws -> Void)
  case async(@Sendable (AsyncResolver, borrowing ValueDestination) async throws -> Void)

  /// A factory of `Value`s from a closure that resolves what it needs itself. (The forms whose
  /// parameters are the dependencies write the value themselves: one closure, not two.)
  /// Calls a synchronous factory (a main-actor one on the main actor, which the walk hopped to
  /// before it claimed the service) with a resolver of `node`'s build on `context`, writing
  /// into `destination`; `false` for an `async` factory, which it does not call. `self` is
  /// borrowed: the closure is called in place, not copied out of its node.
  @inline(__always)
  func callSync(
    _ node: AnyNode, _ context: BuildContext, into destination: borrowing ValueDestination
  ) throws -> Bool {
    switch self {
    case .sync(let factory):
      try factory(Resolver(container: node.owner, context: context, dependent: node), destination)
      return true
    case .mainActor(let factory):
      precondition(MainThread.isCurrent, "\(node.key) was built off the main actor")
      try MainActor.assumeIsolated {
        try factory(
          Resolver(container: node.owner, context: context, dependent: node), destination)
      }
      return true
    case .async:
      return false
    }
  }

  static func producing<Value: Sendable>(
    _ make: @escaping @Sendable (borrowing Resolver) throws -> Value
  ) -> Factory {
    .sync { resolver, destination in destination.initialize(to: try make(resolver)) }
  }
}

/// The names of the named scopes registered, interned: a node keeps an index (registering a
/// named-scope service takes this lock once; a reset of the scope reads it once a node).
enum ScopeNames {
  private static let table = InternTable([""])

  /// The index of `name`, taken once per distinct name.
  static func index(of name: String) -> UInt32 { table.index(of: name) }

  /// The name of `index`.
  static func name(at index: UInt32) -> String { table.value(at: index) }
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
  /// The mutexes' address, 0 until the first lock is asked for. An atomic initialised
  /// statically, not a lazy global: reading a lazy global is a `swift_once` call, twice a
  /// build. Made by the first thread that needs it (two that race each make a set, and the one
  /// that loses the exchange destroys its own); published with release ordering, read with
  /// acquire ordering, so a reader sees the mutexes initialised.
  private static let base = Atomic<Int>(0)

  @inline(__always)
  private static var mutexes: UnsafeMutableRawPointer {
    let address = base.load(ordering: .acquiring)
    if let mutexes = UnsafeMutableRawPointer(bitPattern: address) { return mutexes }
    return makeMutexes()
  }

  @inline(never)
  private static func makeMutexes() -> UnsafeMutableRawPointer {
    let mutexes = UnsafeMutableRawPointer.allocate(byteCount: count * stride, alignment: 64)
    for index in 0..<count {
      RawMutex.initialize(
        (mutexes + index * stride).bindMemory(to: pthread_mutex_t.self, capacity: 1))
    }
    let (exchanged, found) = base.compareExchange(
      expected: 0, desired: Int(bitPattern: mutexes), ordering: .acquiringAndReleasing)
    if exchanged { return mutexes }
    for index in 0..<count {
      RawMutex.destroy((mutexes + index * stride).assumingMemoryBound(to: pthread_mutex_t.self))
    }
    mutexes.deallocate()
    return UnsafeMutableRawPointer(bitPattern: found).unsafelyUnwrapped
  }

  @inline(__always)
  static func mutex(for node: AnyNode) -> RawMutex {
    // Objects are 16-byte aligned: the bits above those pick the lock.
    let address = UInt(bitPattern: ObjectIdentifier(node))
    let index = Int((address >> 4) % UInt(count))
    return RawMutex((mutexes + index * stride).assumingMemoryBound(to: pthread_mutex_t.self))
  }
}
