import Dispatch

/// A registration in a container, with its state: one class for every service type, whose
/// resolve casts the value back to the type it asked for.
///
/// The resolve hot path reads only ``value``, a built singleton's object, published once
/// without a lock. The rest of the lifecycle is its ``SlotState``, behind its lock.
///
/// Safety: `@unchecked Sendable` because its one mutable field, the slot state, is touched only
/// under the node's lock (``NodeLock``); everything else is immutable or atomic.
@usableFromInline
final class AnyNode: @unchecked Sendable {
  let key: AnyServiceKey
  /// The dependencies the factory declares; `nil` if it resolves them itself (then observed).
  let dependencies: DependencyList?
  /// The container the factory's dependencies come from. Unowned: a node lives in its owner's
  /// registry and those of its children, which keep the owner alive.
  unowned let owner: Container
  /// The identity of ``owner``, compared without reading the unowned reference.
  private let ownerID: ObjectIdentifier
  /// The built singleton's value (``objectOfValue(_:)``), once published.
  let value = AtomicReference<AnyObject>()
  /// A transient service's recorded makings (`nil` for any other, or with recording off).
  let transientTally: TransientTally?
  let factory: Factory
  /// A named scope's name, as its index in ``ScopeNames`` (0 for any other scope).
  private let scopeName: UInt32
  let priority: Priority
  let kind: ScopeKind
  /// Whether the factory is `async`: such a service is resolved only with `await`.
  let isAsync: Bool
  /// Whether the factory is isolated to the main actor, where it runs.
  let isMainActor: Bool
  /// One bit each (``Bit``).
  fileprivate let flags = AtomicWord()
  private let lock = NodeLock()
  /// Guarded by ``lock`` (so the runtime's exclusivity check is off), like its builds' latches.
  @exclusivity(unchecked) private var slot = SlotState()

  /// The bits of ``flags``.
  private enum Bit {
    static let wasResolved: UInt64 = 1
    static let wasNeeded: UInt64 = 2
    static let holdsValue: UInt64 = 4
    /// Set for good: see ``dependenciesAreBuilt``.
    static let dependenciesBuilt: UInt64 = 16
    /// Set for good when the registration is replaced: a handle that holds it resolves by key.
    static let retired: UInt64 = 32
    /// Set for good when the owner shuts down: a handle resolves by key, not reading the owner.
    static let shutDown: UInt64 = 64
  }

  /// Set the first time the value is handed out to the app (a resolve from outside a factory,
  /// or a handle): a background build never handed out was warmed up for nothing.
  var wasResolved: Flag { Flag(node: self, bit: Bit.wasResolved) }
  /// Set the first time a factory gets the value: the app needs it without asking for it.
  var wasNeeded: Flag { Flag(node: self, bit: Bit.wasNeeded) }
  /// Set when a build of this singleton found it depends on a named scope: its values are then
  /// held, one per generation, never published in ``value`` (which cannot be dropped).
  var holdsValue: Flag { Flag(node: self, bit: Bit.holdsValue) }

  /// One of a node's flags: a hint about what happened, never a guard of other memory, so read
  /// and written with relaxed ordering.
  struct Flag {
    let node: AnyNode
    let bit: UInt64

    @inline(__always)
    var isSet: Bool { node.flags.loadRelaxed() & bit != 0 }

    /// Sets the flag, if it is not set already (a load, no write, once it is).
    @inline(__always)
    func set() {
      if !isSet { node.flags.setBits(bit) }
    }
  }

  /// Whether any container registered a named scope: until then no build looks for one.
  static let namedScopesRegistered = AtomicWord()

  @inline(__always)
  var isShutDown: Bool { flags.loadAcquire() & Bit.shutDown != 0 }

  func markShutDown() {
    flags.setBits(Bit.shutDown)
  }

  /// Whether the value has been handed out to anyone: the app or a factory.
  var wasUsed: Bool {
    flags.loadRelaxed() & (Bit.wasResolved | Bit.wasNeeded) != 0
  }

  /// Runs `body` with the node's state, under its lock. The body cannot throw: one with a
  /// generic typed error is left an indirect call, where this one is inlined.
  @inline(__always)
  func withState<Result>(_ body: (inout SlotState) -> Result) -> Result {
    lock.withLock { body(&slot) }
  }

  init(
    key: AnyServiceKey, scope: Scope, priority: Priority, dependencies: DependencyList?,
    owner: Container, factory: Factory, isMainActor: Bool = false
  ) {
    if case .async = factory { isAsync = true } else { isAsync = false }
    transientTally = scope.kind == .transient ? owner.recorder.tally(for: key) : nil
    self.factory = factory
    self.isMainActor = isMainActor
    self.key = key
    if case .named(let name) = scope {
      scopeName = ScopeNames.index(of: name)
    } else {
      scopeName = 0
    }
    self.kind = scope.kind
    self.priority = priority
    self.dependencies = dependencies
    self.owner = owner
    ownerID = ObjectIdentifier(owner)
  }

  /// Whether `container`, which the caller holds, is this node's owner.
  @inline(__always)
  func isOwned(by container: Container) -> Bool {
    ownerID == ObjectIdentifier(container)
  }

  /// The registration's scope, made from its kind and, for a named scope, its name.
  var scope: Scope {
    switch kind {
    case .singleton: .singleton
    case .transient: .transient
    case .weak: .weakObject
    case .named: .named(ScopeNames.name(at: scopeName))
    }
  }

  /// The dependencies known so far: declared ones, or those observed in past builds.
  var knownDependencies: DependencyList {
    dependencies ?? DependencyList(withState { $0.observed })
  }

  func observe(_ dependency: AnyServiceKey) {
    withState { $0.observe(dependency) }
  }

  var isPublished: Bool { value.isSet }

  /// The published value, read as `Value`; the node must be ready.
  func read<Value>(as _: Value.Type) -> Value {
    guard let object = value.load() else { preconditionFailure("\(key) read before it was built") }
    return valueOfObject(object, as: Value.self)
  }

  /// Whether the service is built: published, or held (a weak one's object may be gone since).
  var isBuilt: Bool {
    isPublished || ((kind.isHeld || holdsValue.isSet) && withState { $0.isHeld })
  }

  /// Whether this node is synchronous, declares its dependencies, and each is a built
  /// singleton. Once true it stays true, so it is noted in a bit.
  var dependenciesAreBuilt: Bool {
    if flags.loadAcquire() & Bit.dependenciesBuilt != 0 { return true }
    guard !isAsync, let dependencies else { return false }
    guard owner.areBuilt(dependencies) else { return false }
    // Released: whoever reads the bit with acquire ordering sees the values this thread saw.
    flags.setBits(Bit.dependenciesBuilt)
    return true
  }

  /// Whether a value of this transient service can be made at once: not main-actor, its
  /// dependencies seen built (``dependenciesAreBuilt``), not replaced, not shut down.
  @inline(__always)
  var makesAtOnce: Bool {
    kind == .transient && !isMainActor
      && flags.loadAcquire() & (Bit.dependenciesBuilt | Bit.retired | Bit.shutDown)
        == Bit.dependenciesBuilt
  }

  func currentBuilder() -> BuildContext? {
    withState { $0.builder }
  }

  func claim(_ context: BuildContext) -> SlotState.Claim {
    let claim = withState { state -> SlotState.Claim? in
      // What most claims find, decided inline; anything else in `claim(by:)`.
      if let attempt = state.claimIdle(by: context) {
        return .claimed(attempt: attempt, generation: 0)
      }
      if state.resetBarrier != nil { return nil }
      return state.claim(by: context)
    }
    return claim ?? claimOnceReset(context)
  }

  /// ``claim(_:)`` of a service a reset under way has barred: waits until the reset has reached
  /// every service it resets (short: a reset runs no app code), told to the wait observer.
  @inline(never)
  private func claimOnceReset(_ context: BuildContext) -> SlotState.Claim {
    while true {
      let (claim, barrier) = withState { state -> (SlotState.Claim?, DispatchGroup?) in
        if let barrier = state.resetBarrier { return (nil, barrier) }
        return (state.claim(by: context), nil)
      }
      if let claim { return claim }
      WaitGraph.tellWaitObserver(self, context)
      barrier?.wait()
    }
  }

  /// Publishes or holds the value a build made, ends the build, wakes its waiters and hands
  /// queued work the value; returns the value if it is held. Only a singleton that does not
  /// depend on a named scope publishes it in ``value``, for good.
  @discardableResult
  func finish(_ made: AnyObject, attempt: Int) -> Held? {
    switch kind {
    case .weak, .named:
      return finishHeld(made, attempt: attempt)
    case .singleton, .transient:
      // The named scopes' flag read here: no call while none is registered.
      if holdsValue.isSet
        || (Self.namedScopesRegistered.loadAcquire() != 0 && dependsOnNamedScope())
      {
        return finishHeld(made, attempt: attempt)
      }
      let previous = value.setIfUnset(made)
      precondition(previous == nil, "a service's value was published twice")
      // Most builds have no waiter and no queued work: nothing is left to do.
      guard
        let published = withState({ state -> SlotState.Ending? in
          state.endPublished(attempt: attempt) ? nil : state.built(attempt: attempt)
        })
      else { return nil }
      return deliver(published)
    }
  }

  /// ``finish(_:attempt:)`` of a value held in the state. Out of line: most builds publish.
  @inline(never)
  private func finishHeld(_ made: AnyObject, attempt: Int) -> Held? {
    let ending: SlotState.Ending
    switch kind {
    case .weak:
      let object = weakObject(of: made)
      ending = withState {
        $0.built(
          attempt: attempt, storing: .weak(WeakObject(object: object)), value: .object(object))
      }
    case .named, .singleton, .transient:
      if kind != .named { holdsValue.set() }
      ending = withState { $0.built(attempt: attempt, storing: .value(made), value: .value(made)) }
    }
    return deliver(ending)
  }

  /// Wakes the waiters of `ending` and hands its queued work the value; returns the value if
  /// it is held. Out of line: most builds have neither.
  @inline(never)
  private func deliver(_ ending: SlotState.Ending) -> Held? {
    ending.wake?.leave()
    guard var batch = ending.work else { return ending.value }
    while !batch.isEmpty {
      for work in batch { work.deliver(self, ending.value) }
      batch = withState { $0.delivered() }
    }
    return ending.value
  }

  /// The held value, retained under the lock, if the service holds one and is built.
  @inline(__always)
  func held() -> Held? {
    switch kind {
    case .transient: return nil
    case .singleton: if !holdsValue.isSet { return nil }
    case .weak, .named: break
    }
    return withState { $0.held }
  }

  /// Whether a value of this service made now would be made with a named scope's value: one
  /// of its known dependencies is of a named scope, holds its value, or is a transient or weak
  /// service that depends on one.
  func dependsOnNamedScope() -> Bool {
    guard Self.namedScopesRegistered.loadAcquire() != 0 else { return false }
    var seen: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
    var queue: [AnyNode] = [self]
    while let node = queue.popLast() {
      for key in node.knownDependencies {
        guard let dependency = node.owner.lookup(dependency: key) else { continue }
        switch dependency.kind {
        case .named: return true
        case .singleton:
          if dependency.holdsValue.isSet { return true }
        case .transient, .weak:
          // Not kept (or kept weakly) with a mark of their own: what they were made with.
          if seen.insert(ObjectIdentifier(dependency)).inserted { queue.append(dependency) }
        }
      }
    }
    return false
  }

  /// In one step, drops the held value (a build under way goes stale), starts a new generation
  /// and bars claims until `barrier`'s reset ends. Returns whether there was a value or build
  /// to drop, and the value, to release outside every lock (its deinit is the app's code).
  func reset(barring barrier: DispatchGroup) -> (dropped: Bool, value: SlotState.Stored?) {
    withState { state in
      let dropped = state.builder != nil || state.isHeld
      let value = state.reset()
      state.bar(until: barrier)
      return (dropped, value)
    }
  }

  func lift(_ barrier: DispatchGroup) {
    withState { $0.lift(barrier) }
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
          node.wasResolved.set()
          work(held?.read(as: Value.self) ?? node.read(as: Value.self))
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
    flags.setBits(Bit.retired)
    if !work.isEmpty { replacement.receive(work, ahead: true) }
    return true
  }

  /// A child `container`'s copy of this registration, which depends on one of its overrides.
  func copy(owner container: Container) -> AnyNode {
    AnyNode(
      key: key, scope: scope, priority: priority, dependencies: dependencies, owner: container,
      factory: factory, isMainActor: isMainActor)
  }
}

/// The keys of the dependencies a factory declares, in order: one node's edges.
///
/// One or two unnamed keys (most factories) are kept inline as their types, so registering
/// them allocates nothing; three or more, or any named key, in an array.
struct DependencyList: RandomAccessCollection, ExpressibleByArrayLiteral, Equatable, Sendable {
  private enum Storage: Sendable {
    case none
    case one(Any.Type)
    case two(Any.Type, Any.Type)
    case keys([AnyServiceKey])
  }

  private var storage: Storage

  init() {
    storage = .none
  }

  init(_ type: Any.Type) {
    storage = .one(type)
  }

  init(_ first: Any.Type, _ second: Any.Type) {
    storage = .two(first, second)
  }

  init(_ keys: [AnyServiceKey]) {
    storage = keys.isEmpty ? .none : .keys(keys)
  }

  init(arrayLiteral keys: AnyServiceKey...) {
    self.init(keys)
  }

  /// Appends the unnamed key of `type`; `capacity`, if known, sizes the array once.
  @inline(__always)
  mutating func append(type: Any.Type, capacity: Int = 0) {
    switch storage {
    case .none: storage = .one(type)
    case .one(let first): storage = .two(first, type)
    case .two(let first, let second):
      var keys: [AnyServiceKey] = []
      keys.reserveCapacity(Swift.max(3, capacity))
      keys.append(AnyServiceKey(first, name: nil, nameHash: 0))
      keys.append(AnyServiceKey(second, name: nil, nameHash: 0))
      keys.append(AnyServiceKey(type, name: nil, nameHash: 0))
      storage = .keys(keys)
    case .keys(var keys):
      storage = .none
      keys.append(AnyServiceKey(type, name: nil, nameHash: 0))
      storage = .keys(keys)
    }
  }

  mutating func append(_ key: AnyServiceKey) {
    if key.name == nil, count < 2 {
      append(type: key.type)
      return
    }
    var keys = Array(self)
    keys.append(key)
    storage = .keys(keys)
  }

  var startIndex: Int { 0 }

  var endIndex: Int {
    switch storage {
    case .none: 0
    case .one: 1
    case .two: 2
    case .keys(let keys): keys.count
    }
  }

  subscript(position: Int) -> AnyServiceKey {
    switch storage {
    case .none:
      preconditionFailure("no dependency at \(position)")
    case .one(let type):
      precondition(position == 0, "no dependency at \(position)")
      return AnyServiceKey(type, name: nil, nameHash: 0)
    case .two(let first, let second):
      precondition(position == 0 || position == 1, "no dependency at \(position)")
      return AnyServiceKey(position == 0 ? first : second, name: nil, nameHash: 0)
    case .keys(let keys):
      return keys[position]
    }
  }

  /// Whether `body` is true of every key, in order until it is not, without an iterator.
  @inline(__always)
  func allSatisfy(_ body: (AnyServiceKey) -> Bool) -> Bool {
    switch storage {
    case .none: return true
    case .one(let type): return body(AnyServiceKey(type, name: nil, nameHash: 0))
    case .two(let first, let second):
      return body(AnyServiceKey(first, name: nil, nameHash: 0))
        && body(AnyServiceKey(second, name: nil, nameHash: 0))
    case .keys(let keys):
      for key in keys where !body(key) { return false }
      return true
    }
  }

  /// The keys in order, the storage looked at once rather than at each key.
  @inline(never)
  func makeIterator() -> Iterator {
    switch storage {
    case .none: Iterator(first: nil, second: nil, keys: nil)
    case .one(let type): Iterator(first: type, second: nil, keys: nil)
    case .two(let first, let second): Iterator(first: first, second: second, keys: nil)
    case .keys(let keys): Iterator(first: nil, second: nil, keys: keys)
    }
  }

  struct Iterator: IteratorProtocol {
    fileprivate var first: Any.Type?
    fileprivate var second: Any.Type?
    /// More than two keys; `nil` otherwise.
    fileprivate let keys: [AnyServiceKey]?
    private var index = 0

    fileprivate init(first: Any.Type?, second: Any.Type?, keys: [AnyServiceKey]?) {
      self.first = first
      self.second = second
      self.keys = keys
    }

    @inline(never)
    mutating func next() -> AnyServiceKey? {
      if let type = first {
        first = second
        second = nil
        return AnyServiceKey(type, name: nil, nameHash: 0)
      }
      guard let keys, index < keys.count else { return nil }
      defer { index += 1 }
      return keys[index]
    }
  }

  static func == (lhs: DependencyList, rhs: DependencyList) -> Bool {
    lhs.elementsEqual(rhs)
  }
}

extension Container {
  /// Whether every one of `keys` is a built singleton of this container (or its ancestors).
  func areBuilt(_ keys: DependencyList) -> Bool {
    // An optional dependency nothing is registered for is ready: it is `nil`.
    keys.allSatisfy { key in lookup(dependency: key)?.isPublished ?? (key.wrappedKey != nil) }
  }
}

/// How a registration makes its value: as the object it is kept as (``objectOfValue(_:)``).
@usableFromInline
enum Factory: Sendable {
  case sync(@Sendable (borrowing Resolver) throws -> AnyObject)
  /// A synchronous factory isolated to the main actor: run only there.
  case mainActor(@MainActor @Sendable (borrowing Resolver) throws -> AnyObject)
  case async(@Sendable (AsyncResolver) async throws -> AnyObject)

  /// Calls a synchronous factory (a main-actor one on the main actor, where the walk hopped)
  /// with a resolver of `node`'s build on `context`, in `owner`; `nil` for an `async` one.
  /// Not inlined: inlined, the noncopyable resolver stops the optimiser with "copy of
  /// noncopyable typed value" (https://github.com/swiftlang/swift/issues/78082).
  @inline(never)
  func callSync(_ node: AnyNode, _ context: BuildContext, owner: Container) throws -> AnyObject? {
    switch self {
    case .sync(let factory):
      return try factory(Resolver(container: owner, context: context, dependent: node))
    case .mainActor(let factory):
      precondition(MainThread.isCurrent, "\(node.key) was built off the main actor")
      return try MainActor.assumeIsolated {
        SendableObject(
          try factory(Resolver(container: node.owner, context: context, dependent: node)))
      }.object
    case .async:
      return nil
    }
  }

  /// A factory of `Value`s from a closure that resolves what it needs itself.
  static func producing<Value>(
    _ make: @escaping @Sendable (borrowing Resolver) throws -> Value
  ) -> Factory {
    .sync { resolver in objectOfValue(try make(resolver)) }
  }
}

/// The names of the named scopes registered, interned: a node keeps an index.
enum ScopeNames {
  private static let table = InternTable([""])

  static func index(of name: String) -> UInt32 { table.index(of: name) }

  static func name(at index: UInt32) -> String { table.value(at: index) }
}

/// A box holding a value of any type (``ValueBox``), for the non-generic code that needs the
/// object inside a weak service's value.
///
/// A node keeps its value as one object (``objectOfValue(_:)``): a class instance as itself,
/// any other value in a box. A resolve casts it back to its key's type, the value's type.
@usableFromInline
class AnyValueBox: @unchecked Sendable {
  /// The boxed value as an object: a class-bound existential's object.
  var object: AnyObject { preconditionFailure("abstract") }
}

/// A value that is not a class instance, as an object.
///
/// Safety: `@unchecked Sendable` as every service's value is `Sendable`, and it is immutable.
@usableFromInline
final class ValueBox<Value>: AnyValueBox, @unchecked Sendable {
  @usableFromInline let value: Value

  @usableFromInline
  init(_ value: consuming Value) {
    self.value = value
  }

  override var object: AnyObject { value as AnyObject }
}

/// `value` as the object it is kept as: itself if `Value` is a class, otherwise a box.
///
/// Safety (Docs/Design.md, "Memory safety"): a class instance is one reference, as an
/// `AnyObject` is: the bit cast only changes the static type, without the dynamic cast's
/// look-up of conformances.
@inlinable @inline(__always)
func objectOfValue<Value>(_ value: consuming Value) -> AnyObject {
  if Value.self is AnyObject.Type { return unsafeBitCast(value, to: AnyObject.self) }
  return ValueBox(value)
}

/// The value kept as `object` (``objectOfValue(_:)``), of `Value`, the type it was made as.
///
/// Safety (Docs/Design.md, "Memory safety"): a node is found by its key, whose type is its
/// value's, so `object` is an instance of the class `Value` or a `ValueBox<Value>` (which
/// `unsafeDowncast` checks in debug builds).
@inlinable @inline(__always)
func valueOfObject<Value>(_ object: AnyObject, as _: Value.Type) -> Value {
  if Value.self is AnyObject.Type { return unsafeBitCast(object, to: Value.self) }
  return unsafeDowncast(object, to: ValueBox<Value>.self).value
}

/// A held service's value, retained: a generation's value, or a weak service's object.
enum Held: @unchecked Sendable {
  case value(AnyObject)
  case object(AnyObject)

  func read<Value>(as _: Value.Type) -> Value {
    switch self {
    case .value(let object): return valueOfObject(object, as: Value.self)
    case .object(let object):
      // The registration checked that `Value` is a class or a class-bound existential, and
      // the object was made as a `Value`: the cast cannot fail.
      guard let value = object as? Value else {
        preconditionFailure("\(type(of: object)) read as \(Value.self)")
      }
      return value
    }
  }
}

/// A weak service's object, not kept alive.
final class WeakObject {
  weak var object: AnyObject?

  init(object: AnyObject) {
    self.object = object
  }
}

/// The object inside a weak service's value: itself, or a boxed class-bound existential's.
func weakObject(of value: AnyObject) -> AnyObject {
  (value as? AnyValueBox)?.object ?? value
}

/// Whether values of `type` are objects, which a weak reference can hold: a class, or a
/// class-bound existential (`any P` where `P: AnyObject`).
///
/// `any P` never satisfies an `AnyObject` constraint, so this reads the runtime's stable
/// existential metadata: for kind 0x303, the class-constraint flag (clear when class-bound);
/// for a constrained existential (`any P<Int>`, kind 0x307), its shape's special kind (1,
/// class).
func isObjectType(_ type: Any.Type) -> Bool {
  if type is AnyObject.Type { return true }
  let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
  let existentialKind = 0x303
  let extendedExistentialKind = 0x307
  switch metadata.load(as: Int.self) {
  case existentialKind:
    let flags = metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: UInt32.self)
    let anyConstraint: UInt32 = 0x8000_0000
    return flags & anyConstraint == 0
  case extendedExistentialKind:
    let shape = metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: UnsafeRawPointer.self)
    let specialKind = shape.load(as: UInt32.self) & 0xFF
    let classKind: UInt32 = 1
    return specialKind == classKind
  default:
    return false
  }
}

/// A value's object handed across an isolation boundary: every service's value is `Sendable`.
struct SendableObject: @unchecked Sendable {
  let object: AnyObject

  init(_ object: AnyObject) {
    self.object = object
  }
}
