#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One line of building: a thread (or an async resolve) running factories, with the chain of
/// services it is building. Other threads learn what it does from the ``WaitGraph``.
///
/// Safety: `@unchecked Sendable` because it is confined to its own thread or task
/// (Docs/Design.md, "Memory safety"); others only compare it by identity and read its
/// immutable fields.
final class BuildContext: @unchecked Sendable {
  let thread: ThreadInfo
  /// `thread`'s index in ``ThreadNames``, which its build records keep.
  let threadIndex: UInt32
  /// The thread waiters lend their priority to; `nil` for an async resolve's context or the
  /// main actor's, which runs at the highest priority already.
  let recipient: PriorityDonation.Recipient?
  /// The services being built or made on this context, outermost first: what errors name and
  /// cycles are found in. A transient made at once is put on it only when something uses it.
  var chain: [AnyServiceKey] {
    @inline(__always) get {
      if state.making != nil { chainMaking() }
      return state.keys
    }
    @inline(__always) _modify {
      if state.making != nil { chainMaking() }
      yield &state.keys
    }
  }

  /// What the context's own thread or task changes as it builds: only it touches the state,
  /// so the runtime's exclusivity check is off.
  private struct State {
    var keys: [AnyServiceKey] = []
    var making: AnyNode?
    var frames: [WalkFrame] = []
    var nestedTotal: UInt64 = 0
    var trigger = BuildTrigger.onDemand
    var flags: Set<LaunchFlag> = []
    var scheduled: AnyNode?
    var qos: BuildQoS?
    var readyAt: UInt64?
    var argument: Any?
  }
  @exclusivity(unchecked) private var state = State()

  /// Whether no build or making is under way on this context.
  @inline(__always)
  var isIdle: Bool { state.making == nil && state.keys.isEmpty }

  /// Marks the making at once of the transient `node` on this idle context, on the chain for
  /// whatever reads it meanwhile. End it with ``endMaking()``.
  @inline(__always)
  func beginMaking(_ node: AnyNode) {
    state.making = node
  }

  /// Ends the making begun with ``beginMaking(_:)``, its key off the chain if it went on.
  @inline(__always)
  func endMaking() {
    if state.making != nil {
      state.making = nil
    } else {
      state.keys.removeLast()
    }
  }

  /// Makes room in the chain and the walk's frames for a few levels, the first time.
  @inline(__always)
  func reserveForWalk() {
    if state.keys.capacity < Self.initialCapacity {
      state.keys.reserveCapacity(Self.initialCapacity)
      state.frames.reserveCapacity(Self.initialCapacity)
    }
  }

  static let initialCapacity = 16

  /// Puts the transient being made at once on the chain.
  @inline(never)
  private func chainMaking() {
    guard let node = state.making else { return }
    state.making = nil
    state.keys.append(node.key)
  }

  /// The frames of the build walks under way on this context, below each walk's top frame.
  var frames: [WalkFrame] {
    @inline(__always) get { state.frames }
    @inline(__always) _modify { yield &state.frames }
  }

  /// For the recorder: a running total of the time nested in the builds under way here, one
  /// counter for all of them. A build notes it as it begins (``Span/nestedBase``); its nested
  /// time is the growth by its end, when it sets the total to its base plus its own inclusive
  /// time (``endNested(since:inclusive:)``), which the enclosing build then sees as nested.
  var nestedTotal: UInt64 {
    @inline(__always) get { state.nestedTotal }
  }

  /// Adds `duration` to the nested time of the build under way here, if any.
  @inline(__always)
  func addNested(_ duration: UInt64) {
    state.nestedTotal &+= duration
  }

  /// Ends the nested time of a build begun at `base` that took `inclusive` in all: returns its
  /// nested time, and counts `inclusive` as the enclosing build's.
  @inline(__always)
  func endNested(since base: UInt64, inclusive: UInt64) -> UInt64 {
    let nested = state.nestedTotal &- base
    state.nestedTotal = base &+ inclusive
    return nested
  }

  /// Drops the nested time of a build begun at `base` that never ran.
  @inline(__always)
  func dropNested(since base: UInt64) {
    state.nestedTotal = base
  }

  /// The service before the last on the chain, which needed the last one; read in place.
  @inline(__always)
  var requester: AnyServiceKey? {
    if state.making != nil { chainMaking() }
    let count = state.keys.count
    return count > 1 ? state.keys[count - 2] : nil
  }

  /// Whether `node` is the scheduled job's service, compared in place.
  @inline(__always)
  func isScheduled(_ node: AnyNode) -> Bool {
    state.scheduled === node
  }

  /// How builds on this context come about, and the launch flags in force.
  var trigger: BuildTrigger {
    get { state.trigger }
    set { state.trigger = newValue }
  }
  var flags: Set<LaunchFlag> {
    get { state.flags }
    set { state.flags = newValue }
  }
  /// The scheduled job running here: its service (until its build is recorded), quality of
  /// service, and when it became ready to run.
  var scheduled: AnyNode? {
    get { state.scheduled }
    set { state.scheduled = newValue }
  }
  var qos: BuildQoS? {
    get { state.qos }
    set { state.qos = newValue }
  }
  var readyAt: UInt64? {
    get { state.readyAt }
    set { state.readyAt = newValue }
  }
  /// The argument of the argument factory about to run here, until it takes it.
  var argument: Any? {
    get { state.argument }
    _modify { yield &state.argument }
  }

  /// A context; `ownThread` for the calling thread's own, which waiters lend priority to.
  init(thread: ThreadInfo, ownThread: Bool = false) {
    self.thread = thread
    threadIndex = ThreadNames.index(of: thread)
    self.recipient = ownThread ? PriorityDonation.Recipient() : nil
  }

  /// The main actor's context, whichever thread drains the main queue (``MainThread``).
  static let mainActor = BuildContext(thread: ThreadInfo(isMain: true, name: "main"))

  /// Runs `work` with this context (the main actor's) standing in for `other`, with its chain,
  /// trigger and launch flags. Call it on the main actor while `other` waits or is this one.
  func standingIn<Result>(
    for other: BuildContext, _ work: (BuildContext) throws(DeferredError) -> Result
  ) throws(DeferredError) -> Result {
    let saved = (chain, trigger, flags)
    (chain, trigger, flags) = (other.chain, other.trigger, other.flags)
    defer { (chain, trigger, flags) = saved }
    return try work(self)
  }

  /// The calling thread's context; on the main queue, the main actor's.
  static var current: BuildContext {
    #if !canImport(Darwin)
      if drainsMainQueue() { return mainActor }
    #endif
    if let raw = pthread_getspecific(threadKeys.context) {
      return Unmanaged<BuildContext>.fromOpaque(raw).takeUnretainedValue()
    }
    // The main thread's slot holds the main actor's context: no test of the thread later.
    let thread = ThreadInfo.current()
    let context = thread.isMain ? mainActor : BuildContext(thread: thread, ownThread: true)
    let raw = Unmanaged.passRetained(context).toOpaque()
    pthread_setspecific(threadKeys.context, raw)
    #if !canImport(Darwin)
      if !thread.isMain {
        pthread_setspecific(threadKeys.worker, raw)
        if MainThread.isCurrent { return mainActor }
      }
    #endif
    return context
  }

  #if !canImport(Darwin)
    /// Whether the calling thread is a worker that runs the main queue now.
    @inline(__always)
    private static func drainsMainQueue() -> Bool {
      pthread_getspecific(threadKeys.worker) != nil && MainThread.isCurrent
    }
  #endif
}

/// The thread-specific slots: each thread's context, and (off Apple platforms) a mark on the
/// worker threads, whose context is their own.
private let threadKeys: (context: pthread_key_t, worker: pthread_key_t) = {
  var context = pthread_key_t()
  // As the thread ends: no loan of priority to it begins any more (its context may outlive
  // it, held by a latch), and the key's reference goes.
  #if canImport(Darwin)
    pthread_key_create(&context) { raw in
      Unmanaged<BuildContext>.fromOpaque(raw).takeRetainedValue().recipient?.threadEnded()
    }
  #else
    pthread_key_create(&context) { raw in
      guard let raw else { return }
      Unmanaged<BuildContext>.fromOpaque(raw).takeRetainedValue().recipient?.threadEnded()
    }
  #endif
  var worker = pthread_key_t()
  #if !canImport(Darwin)
    pthread_key_create(&worker, nil)
  #endif
  return (context, worker)
}()

// MARK: - The resolver a factory is given

/// What a factory registered with the resolver form resolves its dependencies from.
///
/// It resolves from the registration's container, on the running build, so a cycle through it
/// is found and named. It exists only while the factory runs: it cannot be copied or kept.
///
/// ```swift
/// try container.register(Backend.self) { resolver in
///   try resolver.resolve(Settings.self).offline ? OfflineBackend() : try LiveBackend()
/// }
/// ```
public struct Resolver: ~Copyable {
  let container: Container
  let context: BuildContext
  let dependent: AnyNode
  /// Whether the factory resolves what it needs itself, its edges observed as it does.
  let observes: Bool

  init(container: Container, context: BuildContext, dependent: AnyNode) {
    self.container = container
    self.context = context
    self.dependent = dependent
    observes = dependent.dependencies == nil
  }

  /// The built singleton's value, handed out to the factory, or `nil`.
  @inline(__always)
  private func publishedObject(_ type: ObjectIdentifier, _ name: String?, _ nameHash: UInt)
    -> AnyObject?
  {
    container.lookup(type, name, nameHash)?.publishedObject(handedOutToFactory: true)
  }

  /// Resolves the service registered for `type` and `name`, building it if need be.
  ///
  /// - Parameters:
  ///   - type: The service's type; it may be left out where the compiler can infer it.
  ///   - name: The registration's name, if it has one.
  /// - Returns: The service.
  /// - Throws: ``DeferredError`` if the service is missing, its factory throws, or it closes a
  ///   cycle.
  public func resolve<Value>(
    _ type: Value.Type = Value.self, name: String? = nil
  ) throws(DeferredError) -> Value {
    // A built service without a key made.
    if !observes,
      let object = publishedObject(ObjectIdentifier(Value.self), name, lookupHash(of: name))
    {
      return valueOfObject(object, as: Value.self)
    }
    return try resolve(ServiceKey<Value>(name: name))
  }

  /// Resolves the service registered for `key`, building it if need be.
  ///
  /// - Parameter key: The service's key.
  /// - Returns: The service.
  /// - Throws: ``DeferredError``, as ``resolve(_:name:)``.
  public func resolve<Value>(_ key: ServiceKey<Value>) throws(DeferredError) -> Value {
    if observes { dependent.observe(key.erased) }
    if let object = publishedObject(ObjectIdentifier(Value.self), key.name, key.nameHash) {
      return valueOfObject(object, as: Value.self)
    }
    return try container.resolve(key, context: context)
  }

  /// An unnamed dependency the factory declares: its built value (the walk built it before
  /// the factory runs), else resolved as ``resolve(_:name:)`` does.
  @inline(__always)
  func dependency<Dependency>(_: Dependency.Type) throws(DeferredError) -> Dependency {
    if let object = publishedDependency(ObjectIdentifier(Dependency.self)) {
      return valueOfObject(object, as: Dependency.self)
    }
    return try resolve(ServiceKey<Dependency>())
  }

  /// The built value of the unnamed dependency of `type`; `nil` if it is not published (or
  /// the factory observes what it resolves).
  @inline(never)
  func publishedDependency(_ type: ObjectIdentifier) -> AnyObject? {
    observes ? nil : publishedObject(type, nil, 0)
  }

  /// Resolves the dependency declared at `position`, then moves `position` on: how the keyed
  /// forms' factories read the node's declared keys.
  func resolveDeclared<Dependency>(
    _: Dependency.Type, at position: inout Int
  ) throws(DeferredError) -> Dependency {
    guard let dependencies = dependent.dependencies, position < dependencies.count else {
      preconditionFailure("\(dependent.key) resolved more dependencies than it declares")
    }
    let key = dependencies[position]
    position += 1
    if let object = publishedObject(key.typeID, key.name, key.nameHash) {
      return valueOfObject(object, as: Dependency.self)
    }
    return try container.resolve(ServiceKey<Dependency>(key), context: context)
  }
}
