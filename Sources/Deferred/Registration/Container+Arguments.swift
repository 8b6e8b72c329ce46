import Dispatch

extension Container {
  /// Registers a factory that makes a value from an argument given at resolve, and from its
  /// dependencies, declared by its other parameters: a detail screen's model for an id.
  ///
  /// Its first parameter is the argument (a tuple for several); the others are dependencies,
  /// as in ``register(_:name:scope:priority:replacing:_:)-2f3f1``, and join the graph. Every
  /// resolve runs the factory anew (``register(_:argument:name:cachingUpTo:priority:replacing:_:)``
  /// caches by argument). It has no argument at launch: its `priority` says when its
  /// dependencies are built, so that the first resolve only runs it.
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
  ///   - priority: When its dependencies are built; ``Priority/onDemand`` by default.
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
    try registerArgumentFactory(name, nil, priority, replacing, factory)
  }

  /// Registers a factory that makes a value from an argument and caches it by argument: the
  /// same argument gives the same value, made once, however many threads ask at once.
  ///
  /// The cache belongs to the container that builds the factory's dependencies (a child that
  /// overrides one has its own). It holds at most `limit` values, dropping the oldest; 0
  /// caches nothing. ``clearCache(of:)`` empties it, and ``reset(_:)`` of a named scope the
  /// factory depends on drops it. Two threads whose values need each other fail with
  /// ``DeferredError/Code/cycle``, the loop named, as singletons do.
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
    try registerArgumentFactory(
      name, ArgumentCaching(limit: limit, Argument.self, Value.self), priority, replacing, factory)
  }

  /// The argument forms' work.
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
      // A singleton that declares the factory's dependencies: a child that overrides one
      // copies it, and never hands out a value made with the parent's.
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

  /// Makes a value with the argument factory of `key`: its dependencies are built if they are
  /// not, then the factory runs with `argument`, or the cached value is returned.
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

  /// Empties the cache of the argument factory of `key` in this container; values made from
  /// then on are cached again.
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
  /// Makes a value with the argument factory of `key`, from within a factory, on the running
  /// build: a cycle through it is named, and it is recorded as a transient.
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

/// A making of a cached argument factory's value: the context making it, and the group its
/// waiters wait on.
final class ArgumentMaking: Sendable {
  /// `nil` once the making ended: the wait-for graph reads it live, so that an ended wait is
  /// never taken for one that closes a loop.
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

/// Values an argument factory made, by argument: each made once (a thread that asks for one
/// being made waits), at most `limit`, the oldest dropped first.
///
/// No app code runs under its lock: the argument's hash and `==` are called outside it, and
/// dropped values are released after it, so that a `deinit` may use the cache.
final class ArgumentCache<Argument, Value>: @unchecked Sendable, DescribedKeyType {
  enum Slot {
    case made(Value)
    case making(ArgumentMaking)
  }

  /// One argument's entry; its serial tells entries apart without the argument's `==`.
  struct Entry {
    let serial: UInt64
    let argument: AnyHashable
    var slot: Slot
  }

  /// Safety: `@unchecked Sendable` as the cache: `Argument` is `Hashable` and `Sendable`
  /// wherever a cache is made, and values are `Sendable`.
  struct State: @unchecked Sendable {
    /// The entries by their argument's hash value: only integers are compared under the lock.
    var buckets: [Int: [Entry]] = [:]
    /// The made values' hash values and serials, oldest first, from `head` on.
    var order: [(hash: Int, serial: UInt64)] = []
    var head = 0
    var nextSerial: UInt64 = 0

    /// Removes the entry `serial` of bucket `hash`, and returns it.
    mutating func remove(_ hash: Int, _ serial: UInt64) -> Entry? {
      guard var bucket = buckets[hash],
        let index = bucket.firstIndex(where: { $0.serial == serial })
      else { return nil }
      let entry = bucket.remove(at: index)
      buckets[hash] = bucket.isEmpty ? nil : bucket
      return entry
    }
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
    case make(ArgumentMaking, serial: UInt64)
  }

  /// The cached value for `argument` (whose hash is `hash`), the making to wait for, or the
  /// making this context is to do. The bucket is compared with `argument` outside the lock,
  /// and the answer taken under it if the bucket has not changed meanwhile.
  func lookup(_ argument: AnyHashable, hash: Int, by context: BuildContext) -> Lookup {
    var seen = state.withLock { $0.buckets[hash] ?? [] }
    while true {
      let match = seen.first { $0.argument == argument }?.serial
      let (lookup, changed) = state.withLock { state -> (Lookup?, [Entry]?) in
        let bucket = state.buckets[hash] ?? []
        guard bucket.map(\.serial) == seen.map(\.serial) else { return (nil, bucket) }
        if let match, let entry = bucket.first(where: { $0.serial == match }) {
          switch entry.slot {
          case .made(let value): return (.hit(value), nil)
          case .making(let making): return (.wait(making), nil)
          }
        }
        let making = ArgumentMaking(by: context)
        let serial = state.nextSerial
        state.nextSerial += 1
        state.buckets[hash, default: []].append(
          Entry(serial: serial, argument: argument, slot: .making(making)))
        return (.make(making, serial: serial), nil)
      }
      if let lookup { return lookup }
      seen = changed ?? []
    }
  }

  /// Ends a making: keeps the value (dropping the oldest beyond the limit), or forgets the
  /// argument if it failed; then wakes the waiters.
  func end(hash: Int, serial: UInt64, _ making: ArgumentMaking, _ value: Value?) {
    let dropped = state.withLock { state -> [Entry] in
      guard var bucket = state.buckets[hash],
        let index = bucket.firstIndex(where: { $0.serial == serial }),
        case .making(let current) = bucket[index].slot, current === making
      else { return [] }
      guard let value else { return state.remove(hash, serial).map { [$0] } ?? [] }
      bucket[index].slot = .made(value)
      state.buckets[hash] = bucket
      state.order.append((hash, serial))
      var dropped: [Entry] = []
      while state.order.count - state.head > limit {
        let (oldHash, oldSerial) = state.order[state.head]
        if let entry = state.remove(oldHash, oldSerial) { dropped.append(entry) }
        state.head += 1
      }
      if state.head > limit {
        state.order.removeFirst(state.head)
        state.head = 0
      }
      return dropped
    }
    making.end()
    _ = dropped
  }

  /// Drops every value made; makings under way are kept when they end.
  func removeAll() {
    let dropped = state.withLock { state -> [Entry] in
      var dropped: [Entry] = []
      for (hash, serial) in state.order[state.head...] {
        if let entry = state.remove(hash, serial) { dropped.append(entry) }
      }
      state.order = []
      state.head = 0
      return dropped
    }
    _ = dropped
  }
}

extension AnyNode {
  /// Makes a value of this argument factory with `argument` on `context`, after its
  /// dependencies, recorded as a transient; or takes it from its cache.
  func make<Argument, Value: Sendable>(
    _ argument: Argument, _ context: BuildContext, as _: Value.Type
  ) throws(DeferredError) -> Value {
    if !dependenciesAreBuilt || context.chain.contains(key) { try ensureBuilt(context) }
    guard let cacheKey = dependencies?.last, cacheKey.type is ArgumentCache<Argument, Value>.Type,
      let hashable = argument as? AnyHashable, let cacheNode = owner.lookup(cacheKey)
    else { return try run(argument, context, as: Value.self) }
    let cache = try argumentCache(cacheNode, context, ArgumentCache<Argument, Value>.self)
    // The argument's hash, its app code, outside the cache's lock.
    let hash = hashable.hashValue
    while true {
      switch cache.lookup(hashable, hash: hash, by: context) {
      case .hit(let value):
        return value
      case .wait(let making):
        if making.owner === context {
          throw DeferredError.cycle(closing: key, chain: context.chain)
        }
        // An edge of the wait-for graph: a wait that would close a loop across threads fails
        // at once, the loop named.
        try WaitGraph.enter(waitingFor: making, of: self, by: context)
        defer { WaitGraph.leave(making: making, by: context) }
        if let limit = owner.waitLimit {
          if making.done.wait(timeout: .after(limit)) == .timedOut {
            throw DeferredError(.waitTimedOut, key: key, chain: context.chain + [key])
          }
        } else {
          making.done.wait()
        }
      case .make(let making, let serial):
        do throws(DeferredError) {
          let value = try run(argument, context, as: Value.self)
          cache.end(hash: hash, serial: serial, making, value)
          return value
        } catch {
          cache.end(hash: hash, serial: serial, making, nil)
          throw error
        }
      }
    }
  }

  /// The cache of `node`, built if it is not: published, or held when it was made with a
  /// named scope's value.
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
