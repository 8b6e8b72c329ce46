import Dispatch

extension Container {
  /// Registers a factory that makes a value from an argument given at resolve, and from its
  /// dependencies, declared by its other parameters: a detail screen's model for an id.
  ///
  /// Its first parameter is the argument (a tuple for several); the others are dependencies,
  /// each resolved by its type, as in ``register(_:name:scope:priority:replacing:_:)-6zxn7``.
  /// Every resolve runs the factory anew: nothing is cached (see
  /// ``register(_:argument:name:cachingUpTo:priority:replacing:_:)`` for a factory that caches
  /// by argument). The dependencies join the graph: ``validate()`` checks them, a cycle through
  /// them is named. The factory itself cannot be built at launch (it has no argument then): its
  /// `priority` says when its dependencies are built, so that the first resolve only runs it.
  ///
  /// ```swift
  /// let detail = try container.register(DetailModel.self, argument: Int.self) {
  ///   (id: Int, storage: Storage) in DetailModel(id: id, storage: storage)
  /// }
  /// let model = try container.resolve(detail, argument: 42)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the factory makes.
  ///   - argument: The type of its argument.
  ///   - name: A name, where several factories make the same type from the same argument type.
  ///   - priority: When its dependencies are built during launch; ``Priority/onDemand`` by
  ///     default.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value from the argument, then its dependencies.
  /// - Returns: The factory's key, which resolving takes with an argument of its type.
  /// - Throws: As the other registrations.
  @discardableResult @inlinable @inline(never)
  public func register<Argument, Value: Sendable, each Dependency: Sendable>(
    _ type: Value.Type = Value.self, argument: Argument.Type, name: String? = nil,
    priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (Argument, repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> FactoryKey<Argument, Value> {
    // A shim specialised in the caller's module: see `registerByType`.
    try registerArgumentFactory(name, nil, priority, replacing, factory)
  }

  /// Registers a factory that makes a value from an argument and caches it by argument: the
  /// same argument gives the same value, made once, however many threads ask at once.
  ///
  /// The cache belongs to the container that builds the factory's dependencies (a child that
  /// overrides one of them has a cache of its own, released with the child). It holds at most
  /// `limit` values: one more drops the oldest. A limit of 0 caches nothing (every resolve runs
  /// the factory, as the form without a cache does). ``clearCache(of:)`` empties it. A factory
  /// that depends on a named-scope service (directly or through others) caches values made with
  /// that scope's instances: ``reset(_:)`` of the scope drops its cache with them.
  ///
  /// Two threads that make values needing each other (the factory of `a(1)` resolves `b(1)`,
  /// whose factory resolves `a(1)`) fail with ``DeferredError/Code/cycle``, the loop named,
  /// as singletons do: neither waits for the other forever.
  ///
  /// ```swift
  /// let avatar = try container.register(Avatar.self, argument: UserID.self, cachingUpTo: 100) {
  ///   (user: UserID, images: ImageLoader) in try images.avatar(for: user)
  /// }
  /// let mine = try container.resolve(avatar, argument: me)  // made once
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type the factory makes.
  ///   - argument: The type of its argument, `Hashable`.
  ///   - name: A name, where several factories make the same type from the same argument type.
  ///   - limit: How many values the cache holds at most: 0 or more; 0 caches nothing.
  ///   - priority: When its dependencies are built during launch.
  ///   - replacing: Pass `true` to replace a registration of the same key in this container.
  ///   - factory: Makes the value from the argument, then its dependencies.
  /// - Returns: The factory's key.
  /// - Throws: ``DeferredError/Code/outOfRange`` for a negative `limit` (nothing is
  ///   registered); otherwise as the other registrations.
  @discardableResult @inlinable @inline(never)
  public func register<Argument: Hashable & Sendable, Value: Sendable, each Dependency: Sendable>(
    _ type: Value.Type = Value.self, argument: Argument.Type, name: String? = nil,
    cachingUpTo limit: Int, priority: Priority = .onDemand, replacing: Bool = false,
    _ factory: @escaping @Sendable (Argument, repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> FactoryKey<Argument, Value> {
    // A shim specialised in the caller's module: see `registerByType`.
    try registerArgumentFactory(
      name, ArgumentCaching(limit: limit, Argument.self, Value.self), priority, replacing, factory)
  }

  /// The argument forms' work, behind their shims (see `registerByType`).
  @usableFromInline
  func registerArgumentFactory<Argument, Value: Sendable, each Dependency: Sendable>(
    _ name: String?, _ caching: ArgumentCaching?, _ priority: Priority, _ replacing: Bool,
    _ factory: @escaping @Sendable (Argument, repeat each Dependency) throws -> Value
  ) throws(DeferredError) -> FactoryKey<Argument, Value> {
    let key = FactoryKey<Argument, Value>(name: name)
    var dependencies = declared(repeat (each Dependency).self)
    if let caching, caching.limit < 0 {
      throw DeferredError(
        .outOfRange, key: key.erased, chain: [key.erased],
        detail: "cannot be registered with cachingUpTo: \(caching.limit): a cache holds 0 values"
          + " (none: nothing is cached) or more")
    }
    if let caching, caching.limit > 0 {
      // The cache is a singleton that declares the factory's dependencies: a child that
      // overrides one makes a copy of it with the factory's, so it never hands out a value made
      // with the parent's.
      try add(
        AnyNode(
          key: key.cacheKey, scope: .singleton, priority: .onDemand, dependencies: dependencies,
          owner: self, factory: caching.makeCache),
        replacing: replacing)
      dependencies.append(key.cacheKey)
    }
    try add(
      AnyNode(
        key: key.erased, scope: .transient, priority: priority, dependencies: dependencies,
        owner: self,
        factory: .sync { resolver in
          // Taken before anything else runs on the context: a dependency's factory may make
          // another argument factory's value.
          guard let argument = resolver.context.argument.take() as? Argument else {
            throw DeferredError(
              .factoryFailed, key: key.erased, chain: resolver.context.chain,
              detail: "an argument factory is made only with its argument")
          }
          return objectOfValue(
            try factory(argument, repeat resolver.dependency((each Dependency).self)))
        }),
      replacing: replacing)
    return key
  }

  /// Makes a value with the argument factory of `key`: its dependencies are built first if they
  /// are not, then the factory runs with `argument` (or, for a factory that caches, the cached
  /// value is returned).
  ///
  /// The argument's type is the key's: a wrong one does not compile.
  ///
  /// ```swift
  /// let model = try container.resolve(detail, argument: 42)
  /// let row = try container.resolve(rowKey, argument: (section: 1, item: 3))
  /// ```
  ///
  /// - Parameters:
  ///   - key: The factory's key, as registering returned it.
  ///   - argument: The argument (a tuple for several).
  /// - Returns: The value.
  /// - Throws: ``DeferredError``, naming the factory and the chain: it is not registered, a
  ///   dependency is missing or failed, or the factory threw.
  public func resolve<Argument, Value: Sendable>(
    _ key: FactoryKey<Argument, Value>, argument: Argument
  ) throws(DeferredError) -> Value {
    try resolve(key, argument: argument, context: .current)
  }

  /// Empties the cache of the argument factory of `key`, in this container (values made from
  /// then on are cached again); nothing for a factory that does not cache, or whose cache holds
  /// nothing yet.
  ///
  /// ```swift
  /// container.clearCache(of: avatar)  // memory warning: drop the avatars
  /// ```
  ///
  /// - Parameter key: The factory's key.
  public func clearCache<Argument: Hashable & Sendable, Value: Sendable>(
    of key: FactoryKey<Argument, Value>
  ) {
    guard let node = lookup(key.cacheKey) else { return }
    // A cache made with a named scope's value is held, not published (see `AnyNode.finish`).
    if let held = node.held() {
      held.read(as: ArgumentCache<Argument, Value>.self).removeAll()
    } else if node.isPublished {
      node.read(as: ArgumentCache<Argument, Value>.self).removeAll()
    }
  }

  func resolve<Argument, Value: Sendable>(
    _ key: FactoryKey<Argument, Value>, argument: Argument, context: BuildContext
  ) throws(DeferredError) -> Value {
    guard let node = lookup(key.erased) else { throw missing(key.erased, chain: context.chain) }
    node.wasResolved.set()
    return try node.make(argument, context, as: Value.self)
  }
}

extension Resolver {
  /// Makes a value with the argument factory of `key`, from within a factory: on the build that
  /// is running, so that a cycle through it is named, and recorded as a transient.
  ///
  /// ```swift
  /// try container.register(Screen.self) { resolver in
  ///   Screen(model: try resolver.resolve(detail, argument: 42))
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - key: The factory's key.
  ///   - argument: The argument.
  /// - Returns: The value.
  /// - Throws: ``DeferredError``, as ``Container/resolve(_:argument:)``.
  public func resolve<Argument, Value: Sendable>(
    _ key: FactoryKey<Argument, Value>, argument: Argument
  ) throws(DeferredError) -> Value {
    if dependent.dependencies == nil { dependent.observe(key.erased) }
    return try container.resolve(key, argument: argument, context: context)
  }
}

/// How an argument factory caches: the limit, and how to make its (typed) cache.
@usableFromInline
struct ArgumentCaching {
  /// The most values it keeps: 0 keeps none (no cache is made), a negative one is refused.
  let limit: Int
  let makeCache: Factory

  @usableFromInline
  init<Argument: Hashable & Sendable, Value: Sendable>(
    limit: Int, _: Argument.Type, _: Value.Type
  ) {
    self.limit = limit
    makeCache = .sync { _ in return objectOfValue(ArgumentCache<Argument, Value>(limit)) }
  }
}

/// A making of a cached argument factory's value: the context making it, while it does, and the
/// group that waiters wait on until it ends.
final class ArgumentMaking: Sendable {
  /// `nil` once the making ended: the wait-for graph reads it live, so that a wait that ended
  /// is never taken for one that closes a loop.
  private let maker: Locked<BuildContext?>
  let done = DispatchGroup()

  init(by context: BuildContext) {
    maker = Locked(context)
    done.enter()
  }

  /// The context making the value, while it does.
  var owner: BuildContext? { maker.withLock { $0 } }

  /// Ends the making: no one makes it any more, and its waiters wake.
  func end() {
    maker.withLock { $0 = nil }
    done.leave()
  }
}

/// Values an argument factory made, by argument: each made once (a thread that asks for an
/// argument another is making waits for it), at most `limit` of them, the oldest dropped first.
final class ArgumentCache<Argument, Value>: @unchecked Sendable, DescribedKeyType {
  enum Slot {
    case made(Value)
    case making(ArgumentMaking)
  }

  /// Safety: `@unchecked Sendable` as the cache: `Argument` is `Hashable` and `Sendable`
  /// wherever a cache is made, and values are `Sendable`.
  struct State: @unchecked Sendable {
    var slots: [AnyHashable: Slot] = [:]
    var order: [AnyHashable] = []
    var head = 0
  }

  let limit: Int
  /// Safety: `Argument` is `Hashable` and `Sendable` wherever a cache is made, and values are
  /// `Sendable`; the state is touched only under its lock.
  private let state = Locked(State())

  init(_ limit: Int) { self.limit = limit }

  static func keyDescription(name: String?) -> String {
    ArgumentFactoryOf<Argument, Value>.keyDescription(name: name) + " cache"
  }

  enum Lookup {
    case hit(Value)
    case wait(ArgumentMaking)
    case make(ArgumentMaking)
  }

  /// The cached value for `argument`, the making to wait for, or the making this context is to
  /// do.
  func lookup(_ argument: AnyHashable, by context: BuildContext) -> Lookup {
    state.withLock { state in
      switch state.slots[argument] {
      case .made(let value)?: return .hit(value)
      case .making(let making)?: return .wait(making)
      case nil:
        let making = ArgumentMaking(by: context)
        state.slots[argument] = .making(making)
        return .make(making)
      }
    }
  }

  /// Ends a making: keeps the value (dropping the oldest beyond the limit), or forgets the
  /// argument if it failed; then wakes the waiters.
  func end(_ argument: AnyHashable, _ making: ArgumentMaking, _ value: Value?) {
    state.withLock { state in
      guard case .making(let current)? = state.slots[argument], current === making else { return }
      guard let value else {
        state.slots[argument] = nil
        return
      }
      state.slots[argument] = .made(value)
      state.order.append(argument)
      while state.order.count - state.head > limit {
        state.slots[state.order[state.head]] = nil
        state.head += 1
      }
      if state.head > limit {
        state.order.removeFirst(state.head)
        state.head = 0
      }
    }
    making.end()
  }

  /// Drops every value made (makings under way keep going, and are kept when they end).
  func removeAll() {
    state.withLock { state in
      for argument in state.order[state.head...] { state.slots[argument] = nil }
      state.order = []
      state.head = 0
    }
  }

  /// How many values it holds.
  var count: Int { state.withLock { $0.order.count - $0.head } }
}

extension AnyNode {
  /// Makes a value of this argument factory with `argument` on `context`: its dependencies
  /// first (built if they are not), then the factory, recorded as a transient; from the cache
  /// instead, if it caches and holds one for the argument.
  func make<Argument, Value: Sendable>(
    _ argument: Argument, _ context: BuildContext, as _: Value.Type
  ) throws(DeferredError) -> Value {
    if !dependenciesAreBuilt || context.chain.contains(key) { try ensureBuilt(context) }
    guard let cacheKey = dependencies?.last, cacheKey.type is ArgumentCache<Argument, Value>.Type,
      let hashable = argument as? AnyHashable, let cacheNode = owner.lookup(cacheKey)
    else { return try run(argument, context, as: Value.self) }
    let cache = try argumentCache(cacheNode, context, ArgumentCache<Argument, Value>.self)
    while true {
      switch cache.lookup(hashable, by: context) {
      case .hit(let value):
        return value
      case .wait(let making):
        if making.owner === context {
          throw DeferredError.cycle(closing: key, chain: context.chain)
        }
        // An edge of the wait-for graph, as a wait for a singleton's build is: a wait that
        // would close a loop across threads fails at once, the loop named.
        try WaitGraph.enter(waitingFor: making, of: self, by: context)
        defer { WaitGraph.leave(making: making, by: context) }
        if let limit = owner.waitLimit {
          if making.done.wait(timeout: .after(limit)) == .timedOut {
            throw DeferredError(.waitTimedOut, key: key, chain: context.chain + [key])
          }
        } else {
          making.done.wait()
        }
      case .make(let making):
        do throws(DeferredError) {
          let value = try run(argument, context, as: Value.self)
          cache.end(hashable, making, value)
          return value
        } catch {
          cache.end(hashable, making, nil)
          throw error
        }
      }
    }
  }

  /// The cache of `node` (this factory's cache node), built if it is not: published, or held
  /// when it was made with a named scope's value (a reset drops it with that value).
  private func argumentCache<Cache>(
    _ node: AnyNode, _ context: BuildContext, _: Cache.Type
  ) throws(DeferredError) -> Cache {
    if node.isPublished { return node.read(as: Cache.self) }
    if let held = node.held() { return held.read(as: Cache.self) }
    let (built, held) = try node.ensureBuiltHolding(context)
    if let held { return held.read(as: Cache.self) }
    return built.read(as: Cache.self)
  }

  /// Runs the factory with `argument`, as a transient is made.
  private func run<Argument, Value: Sendable>(
    _ argument: Argument, _ context: BuildContext, as _: Value.Type
  ) throws(DeferredError) -> Value {
    guard case .sync = factory else { preconditionFailure("an argument factory is synchronous") }
    context.argument = argument
    defer { context.argument = nil }
    return try makeValue(context, as: Value.self)
  }
}
