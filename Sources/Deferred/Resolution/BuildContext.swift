#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One line of building: a thread running factories, with the chain of services it is building,
/// outermost first.
///
/// Each thread has one, made the first time it builds anything; each async resolve has its own.
/// Its mutable state is touched only by the context's own thread or task: other threads learn
/// what a context is doing from the ``WaitGraph``.
///
/// Safety: `@unchecked Sendable` because it is confined to its own thread or task
/// (Docs/Design.md, "Memory safety"); other threads only compare it by identity and read its
/// immutable fields.
final class BuildContext: @unchecked Sendable {
  let thread: ThreadInfo
  /// `thread`'s index in ``ThreadNames``, which its build records keep.
  let threadIndex: UInt32
  /// The thread, for waiters to lend their priority to (Apple platforms only), while it runs;
  /// `nil` for a context with no thread of its own (an async resolve's, or the main actor's,
  /// which runs at the highest priority already).
  let recipient: PriorityDonation.Recipient?
  /// The services being built or made on this context, outermost first: what errors name, and
  /// what a cycle is found in. A transient made at once (``beginMaking(_:)``) is put on it
  /// only when something reads or writes it.
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

  /// What the context's own thread or task changes as it builds, in one place. Only that
  /// thread or task touches it, one access at a time, so the runtime's exclusivity check is
  /// off.
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

  /// Marks the making at once of the transient `node` on this context, which is idle: it is on
  /// the chain for whatever reads it while the making is under way. End it with
  /// ``endMaking()``.
  @inline(__always)
  func beginMaking(_ node: AnyNode) {
    state.making = node
  }

  /// Ends the making begun with ``beginMaking(_:)``: its key comes off the chain if something
  /// put it there.
  @inline(__always)
  func endMaking() {
    if state.making != nil {
      state.making = nil
    } else {
      state.keys.removeLast()
    }
  }

  /// Makes room in the chain and the walk's frames for a walk of a few levels, the first time:
  /// they grow from there, and keep their room for the next walks.
  @inline(__always)
  func reserveForWalk() {
    if state.keys.capacity < Self.initialCapacity {
      state.keys.reserveCapacity(Self.initialCapacity)
      state.frames.reserveCapacity(Self.initialCapacity)
    }
  }

  /// How many levels a context's chain and the walk's frames first make room for.
  static let initialCapacity = 16

  /// Puts the transient being made at once on the chain, its first key.
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

  /// For the recorder: a running total of the time that counts as nested in the builds under
  /// way on this context, one counter for all of them instead of one per build.
  ///
  /// A build notes the total when it begins (``Span/nestedBase``). The builds it causes and the
  /// waits it makes add to it as they end, so at its own end its nested time is the growth
  /// since; it then sets the total to its base plus its own inclusive time
  /// (``endNested(since:inclusive:)``), so that the build enclosing it sees exactly that much
  /// more, however deep the builds under it went. A build dropped before its factory ran puts
  /// the total back to its base: its time counts as no one's nested time.
  var nestedTotal: UInt64 {
    @inline(__always) get { state.nestedTotal }
  }

  /// Adds `duration` to the nested time of the build under way on this context, if any (with
  /// none under way, nothing reads it).
  @inline(__always)
  func addNested(_ duration: UInt64) {
    state.nestedTotal &+= duration
  }

  /// Ends the nested time of a build that began when the total was `base` and took `inclusive`
  /// in all: returns its nested time, and counts the whole of it as nested time of the build
  /// enclosing it.
  @inline(__always)
  func endNested(since base: UInt64, inclusive: UInt64) -> UInt64 {
    let nested = state.nestedTotal &- base
    state.nestedTotal = base &+ inclusive
    return nested
  }

  /// Drops the nested time of a build that began when the total was `base` and never ran: none
  /// of its time counts as the enclosing build's nested time.
  @inline(__always)
  func dropNested(since base: UInt64) {
    state.nestedTotal = base
  }

  /// The service before the last on the chain: the one whose build needed the build that
  /// ends the chain. Read in place, without a copy of the chain.
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
  /// The scheduled job running on this context: its service (until its build is recorded),
  /// quality of service, and when it became ready to run.
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
  /// The argument of the argument factory about to run on this context, until it takes it.
  var argument: Any? {
    get { state.argument }
    _modify { yield &state.argument }
  }

  /// A context; `ownThread` for the calling thread's own, which waiters lend priority to.
  init(thread: ThreadInfo, ownThread: Bool = false) {
    self.thread = thread
    threadIndex = ThreadNames.index(of: thread)
    self.recipient = ownThread ? PriorityDonation.currentThread() : nil
  }

  /// The main actor's context: whichever thread runs the main queue (on Apple platforms the
  /// main thread; under `swift test` on Linux, a thread that drains it), one context.
  static let mainActor = BuildContext(thread: ThreadInfo(isMain: true, name: "main"))

  /// Runs `work` with this context (the main actor's) standing in for `other`: its chain,
  /// trigger and launch flags, so that errors name the whole chain and records say how the
  /// build came about. Call it on the main actor, while `other` waits or is this thread's.
  func standingIn<Result>(
    for other: BuildContext, _ work: (BuildContext) throws(DeferredError) -> Result
  ) throws(DeferredError) -> Result {
    let saved = (chain, trigger, flags)
    (chain, trigger, flags) = (other.chain, other.trigger, other.flags)
    defer { (chain, trigger, flags) = saved }
    return try work(self)
  }

  /// Calls `body` with ``current``.
  @inline(__always)
  static func withCurrent<Result>(_ body: (BuildContext) throws(DeferredError) -> Result)
    throws(DeferredError) -> Result
  {
    try body(current)
  }

  /// The calling thread's context; on the main queue, whichever thread drains it, the main
  /// actor's (``MainThread``: "main" is one notion).
  static var current: BuildContext {
    #if !canImport(Darwin)
      if drainsMainQueue() { return mainActor }
    #endif
    if let raw = pthread_getspecific(threadKeys.context) {
      return Unmanaged<BuildContext>.fromOpaque(raw).takeUnretainedValue()
    }
    // The main thread's slot holds the main actor's context, so that a look-up needs no test
    // of the thread.
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
    /// Whether the calling thread is a worker (not the main thread) that runs the main queue
    /// now: never on Apple platforms, where only the main thread drains it.
    @inline(__always)
    private static func drainsMainQueue() -> Bool {
      pthread_getspecific(threadKeys.worker) != nil && MainThread.isCurrent
    }
  #endif
}

/// The thread-specific slots: each thread's context, and (where a worker thread may drain the
/// main queue) a mark on the threads whose context is their own, which the main thread's is
/// not.
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
/// It resolves from the container the registration belongs to, on the build that is running,
/// so a cycle through it is found and named. It exists only while the factory runs: it cannot
/// be copied or kept.
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

  /// The built value of the service of `type`, `name` and `nameHash` (its object), handed out
  /// to the factory; `nil` if it is not built (or is transient, or missing).
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
  /// - Throws: ``DeferredError`` if the service is missing, its factory throws, or it closes a
  ///   cycle.
  public func resolve<Value>(_ key: ServiceKey<Value>) throws(DeferredError) -> Value {
    if observes { dependent.observe(key.erased) }
    if let object = publishedObject(ObjectIdentifier(Value.self), key.name, key.nameHash) {
      return valueOfObject(object, as: Value.self)
    }
    return try container.resolve(key, context: context)
  }

  /// A dependency the factory declares by its type, unnamed: its built value at once if it is
  /// built (the walk built every declared dependency before the factory runs), else resolved
  /// as ``resolve(_:name:)`` does. Inlined into the parameter forms' factories, with the
  /// look-up itself out of line.
  @inline(__always)
  func dependency<Dependency>(_: Dependency.Type) throws(DeferredError) -> Dependency {
    if let object = publishedDependency(ObjectIdentifier(Dependency.self)) {
      return valueOfObject(object, as: Dependency.self)
    }
    return try resolve(ServiceKey<Dependency>())
  }

  /// The built value of the unnamed dependency of `type`, handed out to the factory; `nil` if
  /// it is not built in its cell (or the factory observes what it resolves).
  @inline(never)
  func publishedDependency(_ type: ObjectIdentifier) -> AnyObject? {
    observes ? nil : publishedObject(type, nil, 0)
  }

  /// Resolves the dependency the factory declared at `position` (then moves `position` on),
  /// of type `Dependency`: the keyed forms' factories resolve their keys through this, from
  /// the node's declared keys, rather than from keys of their own.
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
