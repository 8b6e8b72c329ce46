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

  /// Runs `work` for `context` (not the main actor's) with the main actor's build context,
  /// whose chain is `context`'s for the time being, so errors name the whole chain: here if
  /// the caller is on the main actor already, else on the main actor while the caller blocks.
  ///
  /// The wait is an edge of the wait-for graph like a wait for another thread's build: if the
  /// main actor is waiting, directly or through others, for a build this context holds, the
  /// hop fails at once with the loop instead of hanging.
  static func run<Result: Sendable>(
    for node: AnyNode, on context: BuildContext,
    _ work: @escaping @Sendable (BuildContext) throws(DeferredError) -> Result
  ) throws(DeferredError) -> Result {
    if isCurrent { return try BuildContext.mainActor.standingIn(for: context, work) }
    let start = try WaitGraph.enterMain(for: node, context)
    let outcome = Locked<Swift.Result<Result, DeferredError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    node.owner.scheduler.scheduleOnMain(
      LaunchJob(describing: "build \(node.key) on main", qos: .userInitiated) {
        // `context` is blocked meanwhile: the main actor reads what it stands in for.
        let result = Swift.Result { () throws(DeferredError) -> Result in
          try BuildContext.mainActor.standingIn(for: context, work)
        }
        outcome.withLock { $0 = result }
        done.signal()
      })
    WaitGraph.tellWaitObserver(node, context)
    done.wait()
    let result = outcome.withLock { $0 }
    try WaitGraph.leaveMain(for: node, context, since: start)
    guard let result else { preconditionFailure("a main-actor build ended without an outcome") }
    return try result.get()
  }
}
