import Dispatch

#if canImport(Darwin)
  import Darwin
#endif

/// Whether code runs on the main actor, and how a build gets there from another thread.
///
/// "Main" is one notion, the main queue, which is the main actor's executor: the wait-for
/// graph, the hops of main-actor builds and the records all ask it here. On Apple platforms
/// only the main thread drains the main queue; elsewhere a worker thread may (on Linux once
/// `dispatchMain()` has ended the main thread, as under `swift test`), so it is asked of the
/// queue, not of the thread: a marker set on the main queue is seen by every block it runs.
/// Code on the main queue builds with ``BuildContext/mainActor`` on every platform
/// (``BuildContext/current``).
enum MainThread {
  private static let marker: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether the caller runs on the main actor.
  static var isCurrent: Bool {
    #if canImport(Darwin)
      if pthread_main_np() != 0 { return true }
    #endif
    return DispatchQueue.getSpecific(key: marker) == true
  }

  /// A build's wait for the main actor: ended once, by the main actor taking the build on, or
  /// by a shutdown on the main actor failing it.
  private final class Hop: Sendable {
    enum State: Sendable { case waiting, running, refused }
    /// The container of the service the main actor is to build.
    let container: Container
    let state = Locked(State.waiting)
    let done = DispatchSemaphore(value: 0)

    init(_ container: Container) { self.container = container }

    /// Moves a waiting hop to `next`; returns whether it was waiting.
    func end(_ next: State) -> Bool {
      state.withLock { state in
        guard state == .waiting else { return false }
        state = next
        return true
      }
    }
  }

  /// The hops under way, and the containers whose ``Container/shutDown()`` the main actor is
  /// in, waiting for their builds.
  private struct Hops: Sendable {
    var waiting: [ObjectIdentifier: Hop] = [:]
    var shuttingDown: [Container] = []

    /// Whether a build of `container`'s service may be what a shutdown under way waits for:
    /// the container shutting down resolves it (it is that container's, or an ancestor's).
    func blocks(_ container: Container) -> Bool {
      shuttingDown.contains { $0.inherits(from: container) }
    }
  }

  private static let hops = Locked(Hops())

  /// Runs `wait`, a wait of `container`'s ``Container/shutDown()`` for its builds under way.
  ///
  /// On the main actor, a build under way that waits for the main actor would wait forever,
  /// and the shutdown with it: every wait for the main actor to build a service `container`
  /// resolves, under way or begun while `wait` runs, fails with
  /// ``DeferredError/Code/shutDown`` instead (its build then fails, and `wait` returns). A
  /// build of an ancestor's service for another container that waits for the main actor
  /// meanwhile fails too: the main actor is not free for it until the shutdown is over.
  static func whileShuttingDown(_ container: Container, _ wait: () -> Void) {
    guard isCurrent else { return wait() }
    let refused = hops.withLock { hops in
      hops.shuttingDown.append(container)
      return hops.waiting.values.filter { container.inherits(from: $0.container) }
    }
    for hop in refused where hop.end(.refused) { hop.done.signal() }
    wait()
    hops.withLock { hops in
      if let index = hops.shuttingDown.firstIndex(where: { $0 === container }) {
        hops.shuttingDown.remove(at: index)
      }
    }
  }

  /// Refuses every build's wait for the main actor to build a service `container` owns, on
  /// whichever thread `container` shuts down, once its services are marked shut down: the
  /// wait fails with ``DeferredError/Code/shutDown`` at once, and the hop's job, when its turn
  /// of the main queue comes, builds nothing. A hop whose job has begun is a build under way.
  /// So no main-actor factory of `container` starts after its ``Container/shutDown()``
  /// returns, even when the main thread is busy (in the very block that shuts down) until
  /// then.
  static func refuseHops(of container: Container) {
    let refused = hops.withLock { hops in
      hops.waiting.values.filter { $0.container === container }
    }
    for hop in refused where hop.end(.refused) { hop.done.signal() }
  }

  /// Runs `work` for `context` (not the main actor's) with the main actor's build context,
  /// whose chain is `context`'s for the time being, so errors name the whole chain: here if
  /// the caller is on the main actor already, else on the main actor while the caller blocks.
  ///
  /// The wait is an edge of the wait-for graph like a wait for another thread's build: if the
  /// main actor is waiting, directly or through others, for a build this context holds, the
  /// hop fails at once with the loop instead of hanging. A shutdown on the main actor fails it
  /// too (``whileShuttingDown(_:_:)``).
  static func run<Result: Sendable>(
    for node: AnyNode, on context: BuildContext,
    _ work: @escaping @Sendable (BuildContext) throws(DeferredError) -> Result
  ) throws(DeferredError) -> Result {
    if isCurrent { return try BuildContext.mainActor.standingIn(for: context, work) }
    let start = try WaitGraph.enterMain(for: node, context)
    let hop = Hop(node.owner)
    let key = ObjectIdentifier(hop)
    let refused = hops.withLock { hops in
      if hops.blocks(hop.container) { return true }
      hops.waiting[key] = hop
      return false
    }
    // The owner shut down before the hop was listed, and its shutdown's sweep
    // (``refuseHops(of:)``) did not find it: refused here. The owner marks its nodes before it
    // sweeps, under one lock with the listing: one of the two sees the other.
    let refusedNow = !refused && node.isShutDown && hop.end(.refused)
    if refusedNow { hops.withLock { _ = $0.waiting.removeValue(forKey: key) } }
    let outcome = Locked<Swift.Result<Result, DeferredError>?>(nil)
    if !refused && !refusedNow {
      node.owner.scheduler.scheduleOnMain(
        LaunchJob(describing: "build \(node.key) on main", qos: .userInitiated) {
          // A refused hop's build does not run: its waiter has given up.
          guard hop.end(.running) else { return }
          // `context` is blocked meanwhile: the main actor reads what it stands in for.
          let result = Swift.Result { () throws(DeferredError) -> Result in
            try BuildContext.mainActor.standingIn(for: context, work)
          }
          outcome.withLock { $0 = result }
          hop.done.signal()
        })
      WaitGraph.tellWaitObserver(node, context)
      hop.done.wait()
      hops.withLock { _ = $0.waiting.removeValue(forKey: key) }
    }
    try WaitGraph.leaveMain(for: node, context, since: start)
    guard let result = outcome.withLock({ $0 }) else {
      throw DeferredError(.shutDown, key: node.key, chain: context.chain + [node.key])
    }
    return try result.get()
  }
}

extension Container {
  /// Whether this container is `other` or one of its descendants: whether it resolves
  /// `other`'s services.
  fileprivate func inherits(from other: Container) -> Bool {
    var current: Container? = self
    while let container = current {
      if container === other { return true }
      current = container.parent
    }
    return false
  }
}
