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
  ///   already or shut down; ``DeferredError/Code/shutDown`` if it was shut down while this
  ///   launch ran (a shutdown is final: the launch cannot be tried again).
  public func launch(_ flags: Set<LaunchFlag> = []) throws(DeferredError) {
    if !MainThread.isCurrent,
      let node = currentTable().orderedNodes.first(where: {
        $0.isMainActor && $0.kind.isCached
          && $0.priority.resolved(in: flags).stage == .critical
      })
    {
      throw DeferredError(
        .mainActorRequired, key: node.key, chain: [node.key],
        detail: "launch() builds it, so call launch() on the main actor")
    }
    // Before the launch begins: an ancestor's registration that misses this mark comes before
    // the first frame, which then finds it (``scheduleIfLaunched(_:)``).
    var ancestor = parent
    while let container = ancestor {
      if container.launchedDescendants.loadRelaxed() == 0 {
        container.launchedDescendants.setBits(1)
      }
      ancestor = container.parent
    }
    let name = origin.map { "the child container made at \($0)" } ?? "this container"
    if let error = schedule({ $0.beginLaunch(flags: flags, now: clock.now(), container: name) }) {
      throw error
    }
    mark(.launchBegan)
    // On the main actor, the main actor's context, whichever thread drains the main queue.
    let context = MainThread.isCurrent ? BuildContext.mainActor : BuildContext.current
    let saved = (context.trigger, context.flags)
    context.trigger = .launch
    context.flags = flags
    defer { (context.trigger, context.flags) = saved }
    do throws(DeferredError) {
      // An argument factory's priority is its dependencies': the walk builds them, not it.
      for node in currentTable().orderedNodes
      where (node.kind.isCached || node.takesArgument)
        && node.priority.resolved(in: flags).stage == .critical
      {
        try node.ensureBuilt(context)
      }
    } catch {
      _ = schedule { $0.endLaunch(succeeded: false, now: clock.now()) }
      throw error
    }
    if let error = schedule({ $0.endLaunch(succeeded: true, now: clock.now()) }) { throw error }
    mark(.criticalReady)
  }

  /// Marks a milestone as a signpost (when recording) and tells the launch observers.
  private func mark(_ milestone: Milestone.Kind) {
    if recorder.isEnabled { Signposts.milestone(milestone) }
    recorder.observation.tell(.milestone(milestone))
  }

  /// Tells the container the app's first frame is on screen: it starts building the deferred
  /// services in the background, in dependency order.
  ///
  /// Services with ``Priority/afterFirstFrame(_:)`` are handed to the scheduler at once, each
  /// when the scheduled services it depends on are built, at most ``maxConcurrentBuilds`` at a
  /// time. Services with ``Priority/idle(after:)`` follow after their delay, or as soon as
  /// ``appIsIdle()`` is called. Calling it again does nothing. A deferred service on a
  /// dependency cycle is built too, and fails with the cycle, so that the app still becomes
  /// fully ready.
  ///
  /// - Throws: ``DeferredError/Code/launchOrder`` if ``launch(_:)`` has not completed, or the
  ///   container was shut down.
  public func firstFrameDrawn() throws(DeferredError) {
    // Read before the medians order the background builds, outside the launch lock.
    pastLaunches?.load()
    let now = clock.now()
    // The table is read under the launch lock, once the phase has moved on: a registration
    // either is in it or, reading the phase after it registered, is adopted.
    let work = try schedule { $0.firstFrameDrawn(nodes: currentTable().orderedNodes, now: now) }
      .get()
    if work.reachedFirstFrame && recorder.isEnabled {
      recorder.noteFirstFrame(currentTable().orderedNodes)
    }
    perform(work)
  }

  /// Tells the container the app has settled: idle services are built now instead of after
  /// their delay.
  public func appIsIdle() {
    perform(schedule { $0.appIsIdle(now: clock.now()) })
  }

  /// Holds deferred builds that have not started (the app went to the background); builds
  /// under way finish. Resolving still builds what it needs.
  public func pause() {
    schedule { $0.pause() }
  }

  /// Lets deferred builds go on after ``pause()``.
  public func resume() {
    perform(schedule { $0.resume() })
  }

  /// Shuts the container down, for good, whatever the launch's phase: deferred builds that
  /// have not started are cancelled, the ones under way are waited for, ``fullyReady()``
  /// throws, ``onFullyReady(on:_:)`` callbacks are released uncalled, and every later resolve
  /// fails with ``DeferredError/Code/shutDown``.
  ///
  /// Call it from outside the container's factories: called from within one, it does not wait
  /// for the builds under way. Called on the main actor, a build under way that needs the main
  /// actor to build a main-actor service fails with ``DeferredError/Code/shutDown`` rather
  /// than wait for it.
  public func shutDown() {
    let work = schedule { $0.shutDown() }
    if work.awaitRunning && BuildContext.current.chain.isEmpty {
      MainThread.whileShuttingDown(self) { runningBuilds.wait() }
    }
    registry.withLock { registry in
      registry.isShutDown = true
      published.store(nil)
      for node in registry.ordered { node.markShutDown() }
      for node in registry.copies.values { node.markShutDown() }
    }
    // Whatever the phase and the thread: a build waiting for the main actor to build one of
    // this container's services would otherwise build it at the main queue's next turn.
    MainThread.refuseHops(of: self)
    perform(work)
  }

  /// Whether every service scheduled after the first frame, before the app was fully ready,
  /// has been built (or has failed, or was skipped because what it needs failed). Once true,
  /// it stays true until the container shuts down: a deferred service registered later is
  /// built, but does not make the app not ready again.
  public var isFullyReady: Bool {
    launchSchedule.withLock { $0.isFullyReady }
  }

  /// Calls `body` on `queue`, once, when every service scheduled after the first frame is
  /// built (or has failed); at once if the app is fully ready already. Released uncalled if
  /// the container shuts down first.
  ///
  /// - Parameters:
  ///   - queue: Where to call `body`.
  ///   - body: What to do.
  public func onFullyReady(on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
    perform(schedule { $0.addFullyReadyWaiter(.callback { queue.async(execute: body) }) })
  }

  /// Suspends until every service scheduled after the first frame is built (or has failed);
  /// returns at once if the app is fully ready already.
  ///
  /// - Throws: ``DeferredError/Code/shutDown`` if the container shuts down first, or has.
  public func fullyReady() async throws(DeferredError) {
    do {
      try await withCheckedThrowingContinuation { continuation in
        perform(schedule { $0.addFullyReadyWaiter(.continuation(continuation)) })
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
    guard
      let found = lookup(ObjectIdentifier(Value.self), name, lookupHash(of: name))
        ?? emptyCollection(key.erased)
    else {
      throw missing(key.erased, chain: [])
    }
    found.whenReady(on: queue, work)
  }

  // MARK: - Running the schedule

  /// Runs a transition of the schedule under the launch lock, and mirrors its phase.
  @discardableResult
  private func schedule<Result>(_ transition: (inout LaunchSchedule) -> Result) -> Result {
    launchSchedule.withLock { schedule in
      let before = schedule.phase
      let result = transition(&schedule)
      if schedule.phase != before {
        launchPhase.storeRelease(UInt64(schedule.phase.rawValue))
      }
      return result
    }
  }

  /// The launch's part of registering `node`, once it is in the registry: a deferred service
  /// registered after the first frame is scheduled, here and in launched descendants (the node
  /// each resolves for the key; a service both schedule is built once).
  ///
  /// The phase is read after the node went in: if the first frame's read of the registry
  /// missed the node, that read came after the launch had begun, so this sees it begun and
  /// takes the launch lock after the first frame, which adopts the node. If the read found the
  /// node, adopting it again does nothing.
  @inline(__always)
  func scheduleIfLaunched(_ node: AnyNode) {
    if launchPhase.loadAcquire() != UInt64(LaunchSchedule.Phase.notLaunched.rawValue),
      LaunchSchedule.mayBeScheduled(node)
    {
      adopt(node)
    }
    if launchedDescendants.loadAcquire() != 0 { scheduleInChildren(node.key) }
  }

  /// Schedules `key`, registered in an ancestor, in each live child that has launched, and in
  /// their descendants.
  @inline(never)
  private func scheduleInChildren(_ key: AnyServiceKey) {
    let children = registry.withLock { $0.publishedChildren.compactMap(\.container) }
    for child in children {
      if child.launchPhase.loadAcquire() != UInt64(LaunchSchedule.Phase.notLaunched.rawValue),
        let node = child.lookup(key), LaunchSchedule.mayBeScheduled(node)
      {
        child.adopt(node)
      }
      if child.launchedDescendants.loadAcquire() != 0 { child.scheduleInChildren(key) }
    }
  }

  @inline(never)
  private func adopt(_ node: AnyNode) {
    perform(schedule { $0.adopt(node: node, now: clock.now()) })
  }

  /// Does what a transition asked for, outside the launch lock (a scheduler may run a job on
  /// the spot; callbacks are the app's code).
  private func perform(_ work: LaunchWork) {
    if work.reachedFirstFrame { mark(.firstFrame) }
    if work.reachedFullyReady {
      mark(.fullyReady)
      recordInHistory()
    }
    for event in work.events {
      switch event {
      case .timer(let delay):
        scheduler.schedule(
          LaunchJob(label: "idle after \(delay)", qos: .background) { [weak self] in
            guard let self else { return }
            self.perform(self.schedule { $0.releaseIdle(upTo: delay, now: self.clock.now()) })
          },
          after: delay)
      case .ready(.callback(let callback)):
        callback()
      case .ready(.continuation(let continuation)):
        continuation.resume()
      case .shutDown(.callback):
        break  // released uncalled
      case .shutDown(.continuation(let continuation)):
        continuation.resume(
          throwing: DeferredError(
            .shutDown, key: AnyServiceKey(Container.self, name: "fullyReady"), chain: []))
      case .cancelled(let build):
        recorder.cancelled(build.node, priority: build.priority)
      }
    }
    for build in work.submit {
      let (id, key, qos) = (build.id, build.node.key, build.priority.qos)
      guard !build.isMainLane else {
        // One build a turn of the main queue: it carries on with nothing.
        scheduler.scheduleOnMain(
          LaunchJob(describing: "build \(key) on main", qos: qos) { [weak self] in
            self?.runScheduled(id, qos: nil)
          })
        continue
      }
      scheduler.schedule(
        LaunchJob(describing: "build \(key)", qos: qos) { [weak self] in
          self?.runScheduled(id, qos: qos)
        })
    }
  }

  /// Once fully ready: records the launch in the history and saves it, in a background job. A
  /// child's launches are not recorded.
  private func recordInHistory() {
    guard pastLaunches != nil, parent == nil else { return }
    scheduler.schedule(
      LaunchJob(label: "record launch history", qos: .background) { [weak self] in
        guard let self, let history = self.pastLaunches else { return }
        let token = history.reserveToken()
        self.historyToken.storeRelease(UInt64(bitPattern: Int64(token)))
        history.record(self.launchReport(), token: token)
        history.save()
      })
  }

  /// Runs a scheduled build, then, while the builds it made ready include a synchronous one of
  /// the same quality of service, runs that one too on this thread, saving a queue hop each.
  private func runScheduled(_ first: LaunchSchedule.EntryID, qos: BuildQoS?) {
    // The flags once a job: fixed since the first frame.
    let (firstRun, flags) = schedule { schedule in
      (started(schedule.start(first, now: clock.now())), schedule.runFlags)
    }
    var next = firstRun
    // One thread, one lane: a main-lane build carries on with nothing, so the context of the
    // first build is every build's.
    var lastContext: BuildContext?
    while let run = next {
      guard !run.isAsync else {
        Task {
          let context = BuildContext(thread: .task)
          run.prepare(context, flags: flags)
          let outcome: LaunchSchedule.Outcome
          do throws(DeferredError) {
            try await run.node.ensureBuiltAsync(context)
            outcome = .built
          } catch {
            self.recordFailure(of: run, on: context, error)
            outcome = .failed
          }
          _ = self.finishScheduled(run, outcome, carryingOn: nil)
        }
        return
      }
      // A main-lane build runs on the main actor: as its context, whichever thread drains it.
      let context =
        lastContext ?? (run.isMainLane ? BuildContext.mainActor : BuildContext.current)
      lastContext = context
      run.prepare(context, flags: flags)
      let outcome: LaunchSchedule.Outcome
      do throws(DeferredError) {
        try run.node.ensureBuilt(context)
        outcome = .built
      } catch {
        recordFailure(of: run, on: context, error)
        outcome = .failed
      }
      context.trigger = .onDemand
      context.scheduled = nil
      context.qos = nil
      context.readyAt = nil
      next = finishScheduled(run, outcome, carryingOn: qos)
    }
  }

  /// Records the failure of a scheduled build that its factory's end did not record (it then
  /// clears the context's `scheduled`), before the schedule hears of it, so that a report
  /// taken once fully ready has it. The root is the context's (a replacement, maybe).
  private func recordFailure(of run: ScheduledRun, on context: BuildContext, _ error: DeferredError)
  {
    guard let root = context.scheduled else { return }
    recorder.scheduledFailure(root, context, since: run.startedAt, error)
  }

  /// Ends a scheduled build, performs what that asks for, and returns the next one to run.
  private func finishScheduled(
    _ run: ScheduledRun, _ outcome: LaunchSchedule.Outcome, carryingOn qos: BuildQoS?
  ) -> ScheduledRun? {
    let now = clock.now()
    let work = schedule { schedule in
      let work = schedule.finish(run.id, outcome, carryingOn: qos, now: now)
      // Counted in the same acquisition as the start, as `started` does.
      if work.next != nil { runningBuilds.enter() }
      return work
    }
    runningBuilds.leave()
    perform(work)
    return work.next
  }

  /// Counts a build the schedule started among those a shutdown waits for: under the launch
  /// lock, in the same acquisition as the start, so that a shutdown never misses it.
  private func started(_ run: ScheduledRun?) -> ScheduledRun? {
    if run != nil { runningBuilds.enter() }
    return run
  }
}
