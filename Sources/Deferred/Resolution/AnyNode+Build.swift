/// How builds run: the walk that builds dependencies first, the attempt that runs one factory
/// and publishes its value, and the making of transients, for synchronous and `async` factories.
extension AnyNode {
  /// Builds this singleton and every singleton it declares, dependencies first, on `context`
  /// (for a transient, only what it declares). Returns the node that holds the value: this one,
  /// or the registration that replaced it.
  ///
  /// The walk is iterative over an explicit stack, so a chain of 10,000 services needs no deeper
  /// native stack than a chain of one. A node is claimed before its dependencies are walked (so
  /// other threads wait instead of building it twice) and built once they are ready. Declared
  /// dependencies are looked up in the node's owner.
  @discardableResult
  func ensureBuilt(_ context: BuildContext) throws(DeferredError) -> AnyNode {
    try ensureBuiltHolding(context).node
  }

  /// ``ensureBuilt(_:)``, which also returns the root's held value, retained, so that a reset
  /// cannot take it from under the caller. A weak dependency is not built by the walk (it would
  /// go at once): the factory that needs it builds it.
  func ensureBuiltHolding(_ context: BuildContext) throws(DeferredError) -> (
    node: AnyNode, held: Held?
  ) {
    // The frame on top in a local, the ones below it on the context's frames, above those of
    // the walks this one is nested in.
    var top = WalkFrame(node: self)
    let base = context.frames.count
    context.reserveForWalk()
    var root = self
    var rootHeld: Held?
    let baseDepth = context.chain.count
    // The container the current node's dependencies come from, read again only on a change.
    var owner = owner
    do throws(DeferredError) {
      walk: while true {
        let node = top.node
        if !node.isOwned(by: owner) { owner = node.owner }
        let isRoot = context.frames.count == base
        switch top.stage {
        case .claimed(let attempt, let span):
          // Every dependency is ready: build it. The stage is cleared first: a build that
          // fails fails itself.
          top.stage = .visited
          // Only the root's value is kept: the others' go at once (`nil` for most).
          let held = try node.build(context, owner: owner, attempt: attempt, span: span)
          if isRoot { rootHeld = held }
          fallthrough
        case .visited:
          // A transient's dependencies are ready: whoever needs it makes it.
          context.chain.removeLast()
          if isRoot { break walk }
          top = context.frames.removeLast()
          continue
        case .unvisited:
          top.stage = .visited
        }
        switch try node.visit(context, owner: owner) {
        case .done(let held):
          if isRoot {
            rootHeld = held
            break walk
          }
          top = context.frames.removeLast()
          continue
        case .replaced(let replacement):
          if isRoot {
            // A scheduled job's root replaced: building the replacement is the job's build.
            if context.scheduled === root { context.scheduled = replacement }
            root = replacement
          }
          top = WalkFrame(node: replacement)
          continue
        case .claimed(let attempt, let span):
          top.stage = .claimed(attempt: attempt, span: span)
        case .dependencies:
          break
        }
        // The dependencies not built yet: the first becomes the top frame; this node's frame
        // goes below the others, pushed in reverse so they are built in declared order.
        context.chain.append(node.key)
        let pushedFrom = context.frames.count
        var first: AnyNode?
        var missing: AnyServiceKey?
        _ = node.dependencies?.allSatisfy { dependency in
          guard
            let next = owner.lookup(dependency) ?? owner.emptyCollection(dependency)
              ?? owner.lookupWrapped(dependency)
          else {
            // An optional dependency nothing is registered for is `nil`, not missing.
            if dependency.wrappedKey != nil { return true }
            missing = dependency
            return false
          }
          if !next.isPublished && next.kind != .weak {
            if first == nil {
              context.frames.append(top)
              first = next
            } else {
              context.frames.append(WalkFrame(node: next))
            }
          }
          return true
        }
        if let missing {
          context.frames.removeSubrange(pushedFrom...)
          throw owner.missing(missing, chain: context.chain)
        }
        guard let first else { continue }
        var (low, high) = (pushedFrom + 1, context.frames.count - 1)
        while low < high {
          context.frames.swapAt(low, high)
          (low, high) = (low + 1, high - 1)
        }
        top = WalkFrame(node: first)
      }
    } catch {
      // Innermost first: each claimed build's record is dropped and its node freed for a later
      // attempt.
      let below = context.frames[base...].reversed()
      context.frames.removeSubrange(base...)
      for frame in [top] + below {
        guard case .claimed(let attempt, let span) = frame.stage else { continue }
        self.owner.recorder.discard(span, frame.node, context)
        frame.node.fail(attempt: attempt, error)
      }
      context.chain.removeSubrange(baseDepth...)
      throw error
    }
    return (root, rootHeld)
  }
}

/// A node on the build walk's stack (``AnyNode/ensureBuiltHolding(_:)``).
struct WalkFrame {
  /// Where the walk is with a node.
  enum Stage {
    /// Not reached yet.
    case unvisited
    /// Visited: its dependencies are on the walk's stack, or ready.
    case visited
    /// Visited and claimed by this context: built once its dependencies are.
    case claimed(attempt: Int, span: Span?)
  }

  var node: AnyNode
  var stage = Stage.unvisited
}

extension AnyNode {
  /// What the walk does next with a node it reached.
  enum Visit {
    /// Nothing more: built (its value if held), waited for, or built on the main actor.
    case done(Held?)
    /// Replaced before it was built: the walk builds the replacement.
    case replaced(AnyNode)
    /// Claimed by this context: dependencies first, then its factory. Its record began with
    /// the claim, so it includes the dependencies it caused to be built.
    case claimed(attempt: Int, span: Span?)
    /// A transient: its dependencies are walked, and whoever needs it makes it.
    case dependencies
  }

  /// The walk's visit of this node (not on `context`'s chain yet), owned by `owner`. A
  /// synchronous cached service off the main actor is claimed inline; any other first goes
  /// through ``visitOther(_:)``.
  @inline(__always)
  func visit(_ context: BuildContext, owner: Container) throws(DeferredError) -> Visit {
    if isAsync || isMainActor || kind == .transient, let visit = try visitOther(context) {
      return visit
    }
    switch claim(context) {
    case .built(let held):
      return .done(held)
    case .claimed(let attempt, let generation):
      let span = owner.recorder.begin(context, building: self, generation: generation)
      return .claimed(attempt: attempt, span: span)
    case .busy(let latch):
      return .done(try waitForBuild(latch, context, owner: owner))
    case .ownedBySelf:
      throw DeferredError.cycle(closing: key, chain: context.chain)
    case .replaced(let replacement):
      return .replaced(replacement)
    }
  }

  /// ``visit(_:owner:)`` of an `async`, main-actor or transient node: the visit, or `nil` for
  /// a cached node that the walk claims as any other.
  @inline(never)
  private func visitOther(_ context: BuildContext) throws(DeferredError) -> Visit? {
    if isAsync && !isBuilt {
      throw DeferredError(.asyncService, key: key, chain: context.chain + [key])
    }
    if isMainActor && kind.isCached && !isPublished && context !== BuildContext.mainActor {
      // Built on the main actor, with what it needs; this thread, if another, waits.
      return .done(
        try MainThread.run(for: self, on: context) { main throws(DeferredError) in
          try self.ensureBuiltHolding(main).held
        })
    }
    guard kind == .transient else { return nil }
    if context.chain.contains(key) {
      throw DeferredError.cycle(closing: key, chain: context.chain)
    }
    return .dependencies
  }

  /// Waits for another context's build of this node.
  @inline(never)
  private func waitForBuild(_ latch: BuildLatch, _ context: BuildContext, owner: Container)
    throws(DeferredError) -> Held?
  {
    try WaitGraph.wait(for: self, latch: latch, by: context, limit: owner.waitLimit)
  }
}

extension AnyNode {
  /// Runs the factory of a claimed build whose dependencies are ready, and publishes or holds
  /// the value (returned if held); on failure, fails the build and throws.
  @discardableResult
  func build(_ context: BuildContext, owner: Container, attempt: Int, span: Span?)
    throws(DeferredError) -> Held?
  {
    let made = run(context, owner: owner)
    return try conclude(made, context, owner: owner, attempt: attempt, span: span)
  }

  /// ``build(_:attempt:span:)`` for any factory, sync or `async`, from async code.
  @discardableResult
  func buildAsync(_ context: BuildContext, attempt: Int, span: Span?) async throws(DeferredError)
    -> Held?
  {
    let made = await runAsync(context)
    return try conclude(made, context, owner: owner, attempt: attempt, span: span)
  }

  /// Ends a build whose factory ran: records it, then publishes the value, or fails the build
  /// and throws.
  @inline(__always)
  private func conclude(
    _ made: Result<AnyObject, DeferredError>, _ context: BuildContext, owner: Container,
    attempt: Int, span: Span?
  ) throws(DeferredError) -> Held? {
    switch made {
    case .success(let object):
      owner.recorder.end(span, self, context, attempt: attempt, outcome: .built)
      return finish(object, attempt: attempt)
    case .failure(let error):
      owner.recorder.end(span, self, context, attempt: attempt, outcome: .failed(error))
      fail(attempt: attempt, error)
      throw error
    }
  }

  /// Runs a synchronous factory on `context`, whose chain ends with this service.
  private func run(_ context: BuildContext, owner: Container) -> Result<AnyObject, DeferredError> {
    do {
      guard let object = try factory.callSync(self, context, owner: owner) else {
        return .failure(DeferredError(.asyncService, key: key, chain: context.chain))
      }
      return .success(object)
    } catch {
      return .failure(failure(error, context))
    }
  }

  /// Runs the factory, sync or `async`, on `context`, whose chain ends with this service.
  private func runAsync(_ context: BuildContext) async -> Result<AnyObject, DeferredError> {
    guard case .async(let factory) = factory else { return run(context, owner: owner) }
    do {
      return .success(try await factory(AsyncResolver(container: owner, context: context)))
    } catch {
      return .failure(failure(error, context))
    }
  }

  /// What a factory threw, as this service's error: a ``DeferredError`` as it is, anything
  /// else as ``DeferredError/Code/factoryFailed``.
  private func failure(_ error: any Error, _ context: BuildContext) -> DeferredError {
    (error as? DeferredError)
      ?? DeferredError(.factoryFailed, key: key, chain: context.chain, underlying: error)
  }
}

extension AnyNode {
  /// Resolves this node, of type `Value`, when it is not built yet, or is transient.
  func resolveSlow<Value>(_ context: BuildContext, as _: Value.Type)
    throws(DeferredError) -> Value
  {
    switch kind {
    case .singleton, .weak, .named:
      let (node, held) = try ensureBuiltHolding(context)
      return held?.read(as: Value.self) ?? node.read(as: Value.self)
    case .transient where isMainActor && context !== BuildContext.mainActor:
      // As its object: a non-`Sendable` value crosses under the promise it was registered with.
      let made = try MainThread.run(for: self, on: context) { main throws(DeferredError) in
        SendableObject(try self.makeTransient(main))
      }
      return valueOfObject(made.object, as: Value.self)
    case .transient:
      return valueOfObject(try makeTransient(context), as: Value.self)
    }
  }

  /// Makes one value of this transient node on `context` (its object).
  @inline(never)
  private func makeTransient(_ context: BuildContext) throws(DeferredError) -> AnyObject {
    // Outside any build, one whose dependencies were seen built is made at once.
    if context.isIdle && makesAtOnce { return try makeAtOnce(context) }
    // A transient whose declared dependencies are all built needs no walk of the graph.
    if !dependenciesAreBuilt || (!context.chain.isEmpty && context.chain.contains(key)) {
      try ensureBuilt(context)
    }
    return try makeValue(context)
  }

  /// Makes one value of this transient node on the idle `context`, once ``makesAtOnce``: no
  /// walk, no span. It counts as on the chain while its factory runs
  /// (``BuildContext/beginMaking(_:)``), so errors and cycles are named as for any making.
  func makeAtOnce(_ context: BuildContext) throws(DeferredError) -> AnyObject {
    context.beginMaking(self)
    // The unowned owner read once.
    let owner = owner
    let made = runCounted(context, owner: owner, recorder: owner.recorder)
    context.endMaking()
    return try made.get()
  }

  /// Runs the factory for ``makeAtOnce(_:)``: counted, and timed as ``TransientTally`` says.
  @inline(__always)
  private func runCounted(_ context: BuildContext, owner: Container, recorder: Recorder)
    -> Result<AnyObject, DeferredError>
  {
    guard recorder.isEnabled else { return run(context, owner: owner) }
    if let tally = transientTally, tally.countUntimed() { return run(context, owner: owner) }
    let start = recorder.now()
    let made = run(context, owner: owner)
    recorder.madeTransient(self, taking: recorder.now() &- start)
    return made
  }

  /// A handle's making of this transient node at once (``makesAtOnce``, `container` not shut
  /// down, the node still the one it resolves, the thread idle); `nil` otherwise. An inherited
  /// node is looked up again: the child may have copied it since the handle was made.
  @usableFromInline
  func makeTransient(for container: Container) throws(DeferredError) -> AnyObject? {
    guard makesAtOnce,
      !container.isShutDownRelaxed,
      owner === container || container.lookup(key) === self
    else { return nil }
    let context = BuildContext.current
    guard context.isIdle else { return nil }
    return try makeAtOnce(context)
  }

  /// Runs this transient node's factory on `context`, its dependencies ready, and records it.
  func makeValue(_ context: BuildContext) throws(DeferredError) -> AnyObject {
    let making = TransientMaking(self, context)
    let made = run(context, owner: owner)
    making.end(self, context)
    return try made.get()
  }

  /// ``makeValue(_:)``, as `Value`.
  func makeValue<Value>(_ context: BuildContext, as _: Value.Type)
    throws(DeferredError) -> Value
  {
    valueOfObject(try makeValue(context), as: Value.self)
  }

  /// ``resolveSlow(_:as:)`` from async code.
  func resolveSlowAsync<Value: Sendable>(_ context: BuildContext, as _: Value.Type)
    async throws(DeferredError) -> Value
  {
    let (node, held) = try await ensureBuiltHoldingAsync(context)
    guard kind == .transient else {
      return held?.read(as: Value.self) ?? node.read(as: Value.self)
    }
    if isMainActor && !isAsync {
      // Its synchronous factory runs only on the main actor: made there, the caller suspended.
      return try await onMainActor(for: context) { main throws(DeferredError) in
        try self.resolveSlow(main, as: Value.self)
      }
    }
    let making = TransientMaking(self, context)
    let made = await runAsync(context)
    making.end(self, context)
    return valueOfObject(try made.get(), as: Value.self)
  }

  /// ``ensureBuilt(_:)`` from async code, blocking no thread of the pool: a synchronous service
  /// is built on a Dispatch queue; an async one on the calling task, its dependencies resolved
  /// as its factory asks for them.
  @discardableResult
  func ensureBuiltAsync(_ context: BuildContext) async throws(DeferredError) -> AnyNode {
    try await ensureBuiltHoldingAsync(context).node
  }

  /// ``ensureBuiltAsync(_:)``, which also returns the held value.
  func ensureBuiltHoldingAsync(_ context: BuildContext) async throws(DeferredError) -> (
    node: AnyNode, held: Held?
  ) {
    guard isAsync else {
      if isPublished { return (self, nil) }
      if isMainActor {
        let found = try await onMainActor(for: context) { main throws(DeferredError) in
          try self.ensureBuiltHolding(main)
        }
        return found
      }
      return try await offThePool(chain: context.chain) { threadContext throws(DeferredError) in
        try self.ensureBuiltHolding(threadContext)
      }
    }
    guard kind.isCached else {
      if context.chain.contains(key) {
        throw DeferredError.cycle(closing: key, chain: context.chain)
      }
      return (self, nil)
    }
    switch claim(context) {
    case .built(let held):
      return (self, held)
    case .busy(let latch):
      return (self, try await WaitGraph.waitAsync(for: self, latch: latch, by: context))
    case .ownedBySelf:
      throw DeferredError.cycle(closing: key, chain: context.chain)
    case .replaced(let replacement):
      // A scheduled job's root replaced: building the replacement is the job's build.
      if context.scheduled === self { context.scheduled = replacement }
      return try await replacement.ensureBuiltHoldingAsync(context)
    case .claimed(let attempt, let generation):
      let span = owner.recorder.begin(context, building: self, generation: generation)
      context.chain.append(key)
      defer { context.chain.removeLast() }
      return (self, try await buildAsync(context, attempt: attempt, span: span))
    }
  }
}

/// One transient value being made: on the chain and recorded while its factory runs.
private struct TransientMaking: ~Copyable {
  let span: Span?

  @inline(__always)
  init(_ node: AnyNode, _ context: BuildContext) {
    context.chain.append(node.key)
    span = node.owner.recorder.beginMaking(context)
  }

  /// Records the making, which has ended.
  @inline(__always)
  consuming func end(_ node: AnyNode, _ context: BuildContext) {
    node.owner.recorder.endTransient(span, node, context)
    context.chain.removeLast()
  }
}
