import Dispatch

/// The process-wide graph of which build context waits for which service.
///
/// A context about to block on a service another context is building first walks the graph
/// under its lock: from the service to its builder, to the service that builder waits for, to
/// that one's builder, and so on. Reaching itself means the wait would close a cycle, so it fails
/// at once with the loop named instead of hanging. Every hop reads the builder live, so every
/// context on a loop found this way is really blocked: no false alarms, and the last context to
/// close a loop always sees it.
enum WaitGraph {
  /// What each blocked context waits for, and its chain when it began to wait: a build of
  /// `node` by whoever builds it, or (`onMain`) the main actor, to build `node` there.
  private struct Wait {
    let node: AnyNode
    let onMain: Bool
    let chain: [AnyServiceKey]
    /// For a wait for a cached argument factory's value: the making waited for.
    var making: ArgumentMaking? = nil

    /// The context this wait waits for, if it is under way.
    var owner: BuildContext? {
      if let making { return making.owner }
      return onMain ? BuildContext.mainActor : node.currentBuilder()
    }
  }

  private static let waits = Locked<[ObjectIdentifier: Wait]>([:])

  /// Blocks until `latch` (a build of `node` by another context) finishes, on behalf of
  /// `context`.
  @discardableResult
  static func wait(
    for node: AnyNode, latch: BuildLatch, by context: BuildContext, limit: Duration?
  ) throws(DeferredError) -> Held? {
    let start = try enter(node, context)
    return try leave(node, latch, context, since: start, latch.wait(for: node, limit: limit))
  }

  /// Suspends until `latch` finishes, on behalf of `context`, blocking no thread.
  @discardableResult
  static func waitAsync(
    for node: AnyNode, latch: BuildLatch, by context: BuildContext
  ) async throws(DeferredError) -> Held? {
    let start = try enter(node, context)
    return try leave(node, latch, context, since: start, await latch.outcome(for: node))
  }

  /// Records that `context`, on another thread than the main actor's, waits for the main
  /// actor to build `node`, unless that would close a cycle (the main actor waits, directly
  /// or through others, for a build `context` holds); returns when the wait began.
  static func enterMain(for node: AnyNode, _ context: BuildContext) throws(DeferredError)
    -> UInt64
  {
    try enter(node, context, onMain: true)
  }

  /// Ends a wait begun with ``enterMain(for:_:)``: its time counts as nested time of the build
  /// `context` is running, as a wait for another thread's build does.
  static func leaveMain(for node: AnyNode, _ context: BuildContext, since start: UInt64)
    throws(DeferredError)
  {
    _ = waits.withLock { $0.removeValue(forKey: ObjectIdentifier(context)) }
    let elapsed = node.owner.recorder.now() &- start
    context.addNested(elapsed)
  }

  /// Records that `context` waits for `making`, another context's making of a value of the
  /// cached argument factory `node`, unless that would close a cycle (the maker waits, directly
  /// or through others, for something `context` builds or makes). End it with
  /// ``leave(making:by:)``.
  static func enter(waitingFor making: ArgumentMaking, of node: AnyNode, by context: BuildContext)
    throws(DeferredError)
  {
    _ = try enter(node, context, making: making)
  }

  /// Ends a wait begun with ``enter(waitingFor:of:by:)``.
  static func leave(making _: ArgumentMaking, by context: BuildContext) {
    _ = waits.withLock { $0.removeValue(forKey: ObjectIdentifier(context)) }
  }

  /// Records that `context` waits for `node` (built by another context, by the main actor
  /// when `onMain`, or made by `making`'s maker), unless that would close a cycle, tells the
  /// container's wait observer, and returns when the wait began.
  private static func enter(
    _ node: AnyNode, _ context: BuildContext, onMain: Bool = false, making: ArgumentMaking? = nil
  ) throws(DeferredError) -> UInt64 {
    try waits.withLock { waits throws(DeferredError) in
      let waiting = Wait(node: node, onMain: onMain, chain: context.chain, making: making)
      var loop = context.chain + [node.key]
      var target = node
      var owner = waiting.owner
      while let current = owner {
        if current === context {
          throw DeferredError(
            .cycle, key: node.key, chain: context.chain + [node.key],
            cycle: closed(loop, waitingAt: context.chain.count))
        }
        guard let wait = waits[ObjectIdentifier(current)] else { break }
        let tail = wait.chain.firstIndex(of: target.key).map { wait.chain[($0 + 1)...] }
        loop += (tail ?? []) + [wait.node.key]
        target = wait.node
        owner = wait.owner
      }
      waits[ObjectIdentifier(context)] = waiting
    }
    // The wait begins before the observer hears of it: what the observer does next (a test
    // moving its clock, say) falls inside the wait. A wait for the main actor is told by the
    // hop, once its job is queued.
    let start = node.owner.recorder.now()
    if !onMain { tellWaitObserver(node, context) }
    return start
  }

  /// The loop a wait closes, from `loop`: the waiting context's chain, the service it is to
  /// wait for (at `waitingAt`), then each service the contexts along the loop wait for.
  ///
  /// The last one is a service the waiting context is building, where the loop starts; or,
  /// when the last wait is for the main actor, which the waiting context occupies without
  /// building that service, the loop starts at the service the context waits for and comes
  /// back to it (`B → M → B`: B's builder waits for the main actor to build M, while the main
  /// actor waits for B).
  private static func closed(_ loop: [AnyServiceKey], waitingAt index: Int) -> [AnyServiceKey] {
    let last = loop.count - 1
    if let start = loop.firstIndex(of: loop[last]), start < last { return Array(loop[start...]) }
    // The service waited for alone: the loop is that service.
    guard index < last else { return [loop[last]] }
    return Array(loop[index...]) + [loop[index]]
  }

  /// Tells `node`'s container's wait observer that `context` is about to wait for `node`.
  static func tellWaitObserver(_ node: AnyNode, _ context: BuildContext) {
    node.owner.tellWaitObserver(
      WaitEvent(
        service: node.key.description, thread: context.thread.name,
        waitingService: context.chain.last?.description))
  }

  /// Ends the wait of `context` for `latch` with `outcome` (`nil`: it timed out), records it,
  /// and throws if the build did not succeed; returns the value the build held, if it did.
  private static func leave(
    _ node: AnyNode, _ latch: BuildLatch, _ context: BuildContext, since start: UInt64,
    _ outcome: BuildLatch.Outcome?
  ) throws(DeferredError) -> Held? {
    _ = waits.withLock { $0.removeValue(forKey: ObjectIdentifier(context)) }
    node.owner.recorder.waited(for: node, attempt: latch.attempt, by: context, since: start)
    switch outcome {
    case nil:
      throw DeferredError(
        .waitTimedOut, key: node.key, chain: context.chain + [node.key],
        holder: latch.owner.thread.name)
    case .built(let held)?:
      return held
    case .failed(let error)?:
      throw error.rechained(under: context.chain, at: node.key)
    }
  }
}

extension Duration {
  /// The duration in whole nanoseconds, saturated to what a `UInt64` holds: a negative
  /// duration counts as zero, and one beyond about 584 years as `UInt64.max`, a reading no
  /// clock reaches. Every conversion of a duration the app hands in goes through it, so that
  /// no duration, however long, overflows.
  package var nanoseconds: UInt64 {
    // Compared first: `components` traps for a duration beyond `Int64.max` seconds either
    // way, which sums of durations reach.
    guard self > .zero else { return 0 }
    guard self < Self.beyondNanoseconds else { return .max }
    let (seconds, attoseconds) = components
    // Both components carry the duration's sign.
    guard seconds >= 0, attoseconds >= 0 else { return 0 }
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    let (sum, carry) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
    return overflow || carry ? .max : sum
  }

  /// One nanosecond past `UInt64.max` nanoseconds.
  private static let beyondNanoseconds =
    Duration.seconds(18_446_744_073) + .nanoseconds(709_551_616)

  /// `seconds` as a duration, saturated to `Int64.max` seconds either way (a `Double` of
  /// seconds can be far larger than a `Duration` holds); `nil` for NaN.
  init?(saturatingSeconds seconds: Double) {
    guard !seconds.isNaN else { return nil }
    let limit = Double(Int64.max)
    self = seconds.magnitude < limit ? .seconds(seconds) : .seconds(seconds < 0 ? -limit : limit)
  }
}

/// The clock reading `duration` after `now`, saturated at `UInt64.max`.
func deadline(after duration: Duration, from now: UInt64) -> UInt64 {
  let (sum, overflow) = now.addingReportingOverflow(duration.nanoseconds)
  return overflow ? .max : sum
}

extension DispatchTime {
  /// The time `duration` from now; `distantFuture` (never) for a duration beyond about 146
  /// years. In nanoseconds of uptime, not Dispatch's `Int` intervals, which are 32 bits on
  /// some watches.
  static func after(_ duration: Duration) -> DispatchTime {
    let nanoseconds = duration.nanoseconds
    guard nanoseconds < 1 << 62 else { return .distantFuture }
    return DispatchTime(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds + nanoseconds)
  }
}
