import Dispatch

extension Container {
  /// Builds the critical services, on the calling thread, in dependency order: call it while
  /// the app launches, before its first frame.
  ///
  /// A service that a critical one depends on is built too, whatever its own priority
  /// (``validate()`` reports each such promotion). Nothing else is built: deferred services
  /// wait for ``firstFrameDrawn()``.
  ///
  /// ```swift
  /// func application(_ app: UIApplication, didFinishLaunchingWithOptions ...) -> Bool {
  ///   try! container.launch(restoring ? [.restoringState] : [])
  ///   return true
  /// }
  /// ```
  ///
  /// - Parameter flags: Facts about this launch that priorities made with
  ///   ``Priority/when(_:_:otherwise:)`` depend on.
  /// - Throws: The ``DeferredError`` of the first critical service that failed; the launch may
  ///   then be tried again. ``DeferredError/Code/launchOrder`` if the container was launched
  ///   already or shut down.
  public func launch(_ flags: Set<LaunchFlag> = []) throws(DeferredError) {
    let launchKey = AnyServiceKey(Container.self, name: "launch")
    try launchState.withLock { state throws(DeferredError) in
      guard state.phase == .notLaunched else {
        let detail =
          state.phase == .shutDown
          ? "the container was shut down" : "launch() was called already; call it once"
        throw DeferredError(.launchOrder, key: launchKey, chain: [], detail: detail)
      }
      setPhase(.launching, in: &state)
      state.flags = flags
      state.milestones.launchBegan = clock.now()
    }
    let context = BuildContext.current
    let saved = (context.trigger, context.flags)
    context.trigger = .launch
    context.flags = flags
    defer { (context.trigger, context.flags) = saved }
    do throws(DeferredError) {
      for node in currentTable().orderedNodes
      where node.scope == .singleton && node.priority.resolved(in: flags).stage == .critical {
        try node.ensureReady(context)
      }
    } catch {
      launchState.withLock { setPhase(.notLaunched, in: &$0) }
      throw error
    }
    launchState.withLock { state in
      setPhase(.launched, in: &state)
      state.milestones.criticalReady = clock.now()
    }
  }

  /// Tells the container the app's first frame is on screen: it starts building the deferred
  /// services in the background, in dependency order.
  ///
  /// Services with ``Priority/afterFirstFrame(_:)`` are handed to the scheduler at once, each
  /// when the scheduled services it depends on are built, at most ``maxConcurrentBuilds`` at a
  /// time. Services with ``Priority/idle(after:)`` follow after their delay, or as soon as
  /// ``appIsIdle()`` is called. Calling it again does nothing.
  ///
  /// - Throws: ``DeferredError/Code/launchOrder`` if ``launch(_:)`` has not completed.
  public func firstFrameDrawn() throws(DeferredError) {
    let nodes = currentTable().orderedNodes
    let now = clock.now()
    let (submit, delays, readyNow) = try launchState.withLock {
      state throws(DeferredError) -> (
        [LaunchState.Entry], [Duration], [@Sendable () -> Void]
      ) in
      switch state.phase {
      case .deferring:
        return ([], [], [])
      case .launched:
        break
      default:
        let detail =
          state.phase == .shutDown
          ? "the container was shut down" : "call launch() before firstFrameDrawn()"
        throw DeferredError(
          .launchOrder, key: AnyServiceKey(Container.self, name: "firstFrameDrawn"), chain: [],
          detail: detail)
      }
      setPhase(.deferring, in: &state)
      state.milestones.firstFrame = now
      var delays: Set<Duration> = []
      var added: [LaunchState.Entry] = []
      added.reserveCapacity(nodes.count)
      state.entries.reserveCapacity(state.entries.count + nodes.count)
      for (order, node) in nodes.enumerated() {
        guard let (entry, delay) = addEntry(node, order: order, in: &state) else { continue }
        added.append(entry)
        if let delay { delays.insert(delay) }
      }
      for entry in added { gate(entry, in: &state) }
      for entry in added { state.makeReady(entry, at: now) }
      let readyNow = markFullyReadyIfDone(&state)
      return (state.takeSubmittable(width: maxConcurrentBuilds), delays.sorted(), readyNow)
    }
    for delay in delays {
      scheduler.schedule(
        LaunchJob(label: "idle after \(delay)", qos: .background) { self.releaseIdle(upTo: delay) },
        after: delay)
    }
    hand(submit)
    for callback in readyNow { callback() }
  }

  /// Tells the container the app has settled: idle services are built now instead of after
  /// their delay.
  public func appIsIdle() {
    launchState.withLock { $0.idleRequested = true }
    releaseIdle(upTo: nil)
  }

  /// Holds deferred builds that have not started (the app went to the background); builds
  /// under way finish. Resolving still builds what it needs.
  public func pause() {
    launchState.withLock { $0.paused = true }
  }

  /// Lets deferred builds go on after ``pause()``.
  public func resume() {
    let submit = launchState.withLock { state in
      state.paused = false
      return state.takeSubmittable(width: maxConcurrentBuilds)
    }
    hand(submit)
  }

  /// Shuts the container down: deferred builds that have not started are cancelled, the ones
  /// under way are waited for, and every later resolve fails with
  /// ``DeferredError/Code/shutDown``.
  ///
  /// Call it from outside the container's factories: called from within one, it does not wait
  /// for the builds under way.
  public func shutDown() {
    let (waiters, wasDeferring) = launchState.withLock { state in
      let wasDeferring = state.phase == .deferring
      setPhase(.shutDown, in: &state)
      for entry in state.entries.values
      where [.blocked, .ready, .submitted].contains(entry.status) {
        entry.status = .cancelled
        recorder.cancelled(entry.node, priority: entry.priority)
      }
      state.readySync.removeAll()
      state.readyAsync = []
      state.fullyReadyCallbacks = []
      defer { state.fullyReadyWaiters = [] }
      return (state.fullyReadyWaiters, wasDeferring)
    }
    if wasDeferring && BuildContext.current.chain.isEmpty { runningBuilds.wait() }
    registry.withLock { registry in
      registry.isShutDown = true
      published.store(nil, ordering: .releasing)
    }
    let error = DeferredError(
      .shutDown, key: AnyServiceKey(Container.self, name: "fullyReady"), chain: [])
    for waiter in waiters { waiter.resume(throwing: error) }
  }

  /// Whether every service scheduled after the first frame has been built (or has failed).
  public var isFullyReady: Bool {
    launchState.withLock { $0.isFullyReady }
  }

  /// Calls `body` on `queue` once every service scheduled after the first frame is built (or
  /// has failed); at once if that is so already. Not called if the container shuts down first.
  ///
  /// - Parameters:
  ///   - queue: Where to call `body`.
  ///   - body: What to do.
  public func onFullyReady(on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
    let now = launchState.withLock { state in
      guard state.isFullyReady else {
        state.fullyReadyCallbacks.append { queue.async(execute: body) }
        return false
      }
      return true
    }
    if now { queue.async(execute: body) }
  }

  /// Suspends until every service scheduled after the first frame is built (or has failed).
  ///
  /// - Throws: ``DeferredError/Code/shutDown`` if the container shuts down first.
  public func fullyReady() async throws(DeferredError) {
    do {
      try await withCheckedThrowingContinuation { continuation in
        let resumeNow = launchState.withLock { state -> Bool? in
          if state.isFullyReady { return true }
          if state.phase == .shutDown { return false }
          state.fullyReadyWaiters.append(continuation)
          return nil
        }
        switch resumeNow {
        case true?: continuation.resume()
        case false?:
          continuation.resume(
            throwing: DeferredError(
              .shutDown, key: AnyServiceKey(Container.self, name: "fullyReady"), chain: []))
        case nil: break
        }
      }
    } catch let error as DeferredError {
      throw error
    } catch {
      preconditionFailure("unexpected \(error)")
    }
  }

  /// Hands `work` the service once it is built, on `queue`, without building it: work that
  /// comes before a service is ready is queued, never lost.
  ///
  /// Work is delivered exactly once, in the order it was handed over (per queue). If the build
  /// fails, the work is held until a later build succeeds. If the service is built already, the
  /// work goes to `queue` at once.
  ///
  /// ```swift
  /// // The user typed before sync was ready: keep the edit, deliver it once sync is built.
  /// try container.whenReady(SyncService.self, on: syncQueue) { sync in sync.push(edit) }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The service's type.
  ///   - name: The registration's name, if it has one.
  ///   - queue: Where to run `work`; a serial queue keeps the order.
  ///   - work: What to do with the service.
  /// - Throws: ``DeferredError/Code/missingService`` if nothing is registered for it.
  public func whenReady<Value: Sendable>(
    _ type: Value.Type = Value.self, name: String? = nil, on queue: DispatchQueue,
    _ work: @escaping @Sendable (Value) -> Void
  ) throws(DeferredError) {
    let key = ServiceKey<Value>(name: name)
    guard let found = lookup(ObjectIdentifier(Value.self), name) else {
      throw missing(key.erased, chain: [])
    }
    found.takeUnretainedValue().whenReady(on: queue, work)
  }

  // MARK: - Scheduling

  /// Moves the launch to `phase`, and its lock-free mirror with it.
  private func setPhase(_ phase: LaunchState.Phase, in state: inout LaunchState) {
    state.phase = phase
    launchPhase.store(phase.rawValue, ordering: .releasing)
  }

  /// Adds `node` to the deferred builds if its priority is deferred; returns its entry and its
  /// idle delay.
  private func addEntry(
    _ node: AnyNode, order: Int, in state: inout LaunchState
  ) -> (LaunchState.Entry, Duration?)? {
    guard node.scope == .singleton, !node.isReady else { return nil }
    let priority = node.priority.resolved(in: state.flags)
    var delay: Duration?
    switch priority.kind {
    case .afterFirstFrame: break
    case .idle(let idle): delay = idle
    default: return nil
    }
    guard state.entries[node] == nil else { return nil }
    let entry = LaunchState.Entry(
      node: node, priority: priority, order: order,
      released: delay == nil || state.idleRequested)
    state.entries.insert(entry)
    state.remaining += 1
    return (entry, delay)
  }

  /// Gates an entry on the nearest scheduled services it needs, found through unscheduled ones
  /// (iteratively), that run in the same phase or before it.
  private func gate(_ entry: LaunchState.Entry, in state: inout LaunchState) {
    var gates = 0
    var seen: Set<ObjectIdentifier> = []
    var queue: [AnyNode] = []
    func visit(_ dependency: AnyNode) {
      guard !dependency.isReady else { return }
      if let scheduled = state.entries[dependency] {
        guard scheduled.priority.stage <= entry.priority.stage, !scheduled.isFinished,
          !scheduled.dependents.contains(where: { $0 === entry })
        else { return }
        // Room for a few at once: most entries have one to a handful of dependents.
        if scheduled.dependents.isEmpty { scheduled.dependents.reserveCapacity(4) }
        scheduled.dependents.append(entry)
        gates += 1
      } else if seen.insert(ObjectIdentifier(dependency)).inserted {
        queue.append(dependency)
      }
    }
    func visitDependencies(of node: AnyNode) {
      for key in node.knownDependencies {
        guard let dependency = node.owner.lookup(key.typeID, key.name) else { continue }
        // Built ones, the most, are passed over without retaining their node.
        if dependency._withUnsafeGuaranteedRef({ $0.isReady }) { continue }
        visit(dependency.takeUnretainedValue())
      }
    }
    visitDependencies(of: entry.node)
    while let next = queue.popLast() { visitDependencies(of: next) }
    entry.gates += gates
  }

  /// Schedules a deferred service registered after the first frame, as if it had been there.
  func adopt(_ node: AnyNode) {
    let now = clock.now()
    let (submit, delay) = launchState.withLock {
      state -> ([LaunchState.Entry], Duration?) in
      guard state.phase == .deferring else { return ([], nil) }
      let wasReady = state.isFullyReady
      guard let (entry, delay) = addEntry(node, order: state.entries.count, in: &state) else {
        return ([], nil)
      }
      if wasReady { state.milestones.fullyReady = nil }
      gate(entry, in: &state)
      state.makeReady(entry, at: now)
      return (state.takeSubmittable(width: maxConcurrentBuilds), delay)
    }
    if let delay {
      scheduler.schedule(
        LaunchJob(label: "idle after \(delay)", qos: .background) { self.releaseIdle(upTo: delay) },
        after: delay)
    }
    hand(submit)
  }

  private func releaseIdle(upTo limit: Duration?) {
    let now = clock.now()
    let submit = launchState.withLock { state in
      for entry in state.entries.values where !entry.released {
        guard case .idle(let delay) = entry.priority.kind, limit.map({ delay <= $0 }) ?? true
        else { continue }
        entry.released = true
        state.makeReady(entry, at: now)
      }
      return state.takeSubmittable(width: maxConcurrentBuilds)
    }
    hand(submit)
  }

  /// Hands builds to the scheduler (never under the launch lock: a scheduler may run a job
  /// on the spot).
  private func hand(_ builds: [LaunchState.Entry]) {
    for entry in builds {
      let (key, qos) = (entry.node.key, entry.priority.qos)
      scheduler.schedule(
        LaunchJob(describing: "build \(key)", qos: qos) { self.runScheduled(entry, qos: qos) })
    }
  }

  /// Runs a scheduled build, then, while the builds it made ready include a synchronous one of
  /// the same quality of service, runs that one too on this thread instead of handing it to
  /// the scheduler: a job per build would cost a queue hop and a thread wake-up each. Ending
  /// one build and starting the next take the launch lock once.
  private func runScheduled(_ first: LaunchState.Entry, qos: QualityOfService) {
    var next = launchState.withLock { startScheduled(first, in: &$0) }
    while let run = next {
      guard !run.node.isAsync else {
        runAsyncScheduled(run)
        return
      }
      next = finishScheduled(run.entry, as: buildScheduled(run), carryingOn: qos)
    }
  }

  /// Marks a submitted entry running, under the launch lock, and returns it with the launch
  /// flags; or returns `nil` if it is not to run now (cancelled by a shutdown, or held back by
  /// a pause).
  private func startScheduled(_ entry: LaunchState.Entry, in state: inout LaunchState)
    -> ScheduledRun?
  {
    guard entry.status == .submitted else { return nil }
    if state.phase == .shutDown {
      entry.status = .cancelled
      if !entry.node.isAsync { state.inFlight -= 1 }
      return nil
    }
    if state.paused {
      entry.status = .blocked
      if !entry.node.isAsync { state.inFlight -= 1 }
      state.makeReady(entry, at: clock.now())
      return nil
    }
    entry.status = .running
    runningBuilds.enter()
    return ScheduledRun(
      entry: entry, qos: entry.priority.qos, readyAt: entry.readyAt, flags: state.flags)
  }

  /// Builds a synchronous scheduled service on this thread.
  private func buildScheduled(_ run: ScheduledRun) -> LaunchState.Status {
    let context = BuildContext.current
    run.prepare(context)
    defer {
      context.trigger = .onDemand
      context.scheduled = nil
      context.qos = nil
      context.readyAt = nil
    }
    do throws(DeferredError) {
      try run.node.ensureReady(context)
      return .built
    } catch {
      return .failed
    }
  }

  /// Builds an async scheduled service on a task of its own.
  private func runAsyncScheduled(_ run: ScheduledRun) {
    Task {
      let node = run.node
      let context = BuildContext(thread: .task)
      run.prepare(context)
      let status: LaunchState.Status
      do throws(DeferredError) {
        try await node.ensureReadyAsync(context)
        status = .built
      } catch {
        status = .failed
      }
      _ = self.finishScheduled(run.entry, as: status, carryingOn: nil)
    }
  }

  /// Ends a scheduled build: under the launch lock, finishes its entry, takes the builds it
  /// made ready and, given `qos`, starts the first synchronous one of that quality of service
  /// for this thread to run next; then hands the others over. Returns the build to run next.
  private func finishScheduled(
    _ entry: LaunchState.Entry, as status: LaunchState.Status,
    carryingOn qos: QualityOfService?
  ) -> ScheduledRun? {
    let now = clock.now()
    var next: ScheduledRun?
    let (submit, readyNow) = launchState.withLock { state in
      if !entry.node.isAsync { state.inFlight -= 1 }
      state.finish(entry, as: status, at: now)
      let readyNow = markFullyReadyIfDone(&state)
      var submit = state.takeSubmittable(width: maxConcurrentBuilds)
      if let qos,
        let index = submit.firstIndex(where: { !$0.node.isAsync && $0.priority.qos == qos })
      {
        next = startScheduled(submit.remove(at: index), in: &state)
      }
      return (submit, readyNow)
    }
    runningBuilds.leave()
    for callback in readyNow { callback() }
    hand(submit)
    return next
  }

  /// Records full readiness once every deferred build has finished, and returns what to call.
  private func markFullyReadyIfDone(_ state: inout LaunchState) -> [@Sendable () -> Void] {
    guard state.isFullyReady, state.milestones.fullyReady == nil else { return [] }
    state.milestones.fullyReady = clock.now()
    let waiters = state.fullyReadyWaiters
    let callbacks = state.fullyReadyCallbacks
    state.fullyReadyWaiters = []
    state.fullyReadyCallbacks = []
    return callbacks + waiters.map { waiter in { waiter.resume() } }
  }
}

/// A scheduled build about to run: its service, and what its build context records.
private struct ScheduledRun: Sendable {
  let entry: LaunchState.Entry
  var node: AnyNode { entry.node }
  let qos: QualityOfService
  let readyAt: UInt64?
  let flags: Set<LaunchFlag>

  /// Sets `context` up for this build.
  func prepare(_ context: BuildContext) {
    context.trigger = .scheduled
    context.flags = flags
    context.scheduled = node
    context.qos = qos
    context.readyAt = readyAt
  }
}
