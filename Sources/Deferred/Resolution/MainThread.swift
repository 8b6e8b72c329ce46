import Dispatch

#if canImport(Darwin)
  import Darwin
#endif

/// Whether code runs on the main actor, and how a build gets there from another thread.
///
/// "Main" is the main queue, the main actor's executor. On Linux a worker thread may drain it
/// (after `dispatchMain()`, as under `swift test`), so it is asked of the queue, by a marker
/// set on it; code on it builds with ``BuildContext/mainActor`` on every platform.
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

  /// A build's wait for the main actor: ended once, by the main actor running it or a shutdown
  /// refusing it.
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

  /// The hops under way, and the containers the main actor is shutting down.
  private struct Hops: Sendable {
    var waiting: [ObjectIdentifier: Hop] = [:]
    var shuttingDown: [Container] = []

    /// Whether a shutdown under way may wait for a build of `container`'s service: the
    /// container shutting down resolves it.
    func blocks(_ container: Container) -> Bool {
      shuttingDown.contains { $0.inherits(from: container) }
    }
  }

  private static let hops = Locked(Hops())

  /// Runs `wait`, a wait of `container`'s ``Container/shutDown()`` for its builds under way.
  ///
  /// On the main actor, a build waiting for the main actor would wait forever, and the shutdown
  /// with it: every hop for a service `container` resolves, under way or begun while `wait`
  /// runs, fails with ``DeferredError/Code/shutDown`` instead (an ancestor's service too).
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

  /// Refuses every hop for a service `container` owns, once its services are marked shut
  /// down: the wait fails with ``DeferredError/Code/shutDown`` and the queued job builds
  /// nothing. So no main-actor factory of `container` starts after its
  /// ``Container/shutDown()`` returns, even if the main thread is busy until then.
  static func refuseHops(of container: Container) {
    let refused = hops.withLock { hops in
      hops.waiting.values.filter { $0.container === container }
    }
    for hop in refused where hop.end(.refused) { hop.done.signal() }
  }

  /// Runs `work` with the main actor's context standing in for `context`: here if on the main
  /// actor, else there while the caller blocks. The wait is an edge of the ``WaitGraph``: a
  /// cycle through the main actor fails at once; a shutdown on it fails the hop too.
  static func run<Result: Sendable>(
    for node: AnyNode, on context: BuildContext,
    _ work: @escaping @Sendable (BuildContext) throws(DeferredError) -> Result
  ) throws(DeferredError) -> Result {
    if isCurrent { return try BuildContext.mainActor.standingIn(for: context, work) }
    let start = try WaitGraph.enter(node, context, onMain: true)
    let hop = Hop(node.owner)
    let key = ObjectIdentifier(hop)
    let refused = hops.withLock { hops in
      if hops.blocks(hop.container) { return true }
      hops.waiting[key] = hop
      return false
    }
    // The owner shut down before the hop was listed, so its sweep (`refuseHops(of:)`) missed
    // it: refused here. The owner marks its nodes before it sweeps, and the sweep and the
    // listing share a lock: one of the two sees the other.
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
  /// Whether this container is `other` or a descendant, which resolves `other`'s services.
  fileprivate func inherits(from other: Container) -> Bool {
    var current: Container? = self
    while let container = current {
      if container === other { return true }
      current = container.parent
    }
    return false
  }
}
