import Dispatch

/// The process-wide graph of which build context waits for which service.
///
/// Before blocking, a context walks it under its lock: service, its builder, the service that
/// builder waits for, and so on. Reaching itself means the wait would close a cycle: it fails
/// at once with the loop named. Each hop reads the builder live, so there are no false alarms,
/// and the last context to close a loop always sees it.
enum WaitGraph {
  /// What a blocked context waits for (`node`'s builder, or the main actor when `onMain`), and
  /// its chain when it began.
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

  /// Blocks `context` until `latch`, another context's build of `node`, finishes.
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

  /// Ends a wait for the main actor (``enter(_:_:onMain:making:)``): its time counts as nested
  /// time of the build `context` is running.
  static func leaveMain(for node: AnyNode, _ context: BuildContext, since start: UInt64)
    throws(DeferredError)
  {
    remove(context)
    let elapsed = node.owner.recorder.now() &- start
    context.addNested(elapsed)
  }

  /// Records that `context` waits for `making`, another context's making of a value of the
  /// cached argument factory `node`, unless that closes a cycle. End it with
  /// ``leave(making:by:)``.
  static func enter(waitingFor making: ArgumentMaking, of node: AnyNode, by context: BuildContext)
    throws(DeferredError)
  {
    _ = try enter(node, context, making: making)
  }

  /// Ends a wait begun with ``enter(waitingFor:of:by:)``.
  static func leave(making _: ArgumentMaking, by context: BuildContext) {
    remove(context)
  }

  /// Ends the wait of `context`.
  private static func remove(_ context: BuildContext) {
    _ = waits.withLock { $0.removeValue(forKey: ObjectIdentifier(context)) }
  }

  /// Records that `context` waits for `node` (built by another context, by the main actor
  /// when `onMain`, or made by `making`'s maker), unless that closes a cycle, tells the wait
  /// observer (except for the main actor: the hop does), and returns when the wait began.
  static func enter(
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

  /// The loop a wait closes, from `loop`: the waiting context's chain, the service it waits
  /// for (at `waitingAt`), then what each context along the loop waits for. The loop starts
  /// at the last one's earlier place in it; if it has none (the last wait is for the main
  /// actor, which the waiter occupies), at the service waited for (`B → M → B`).
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

  /// Ends the wait of `context` for `latch` with `outcome` (`nil`: timed out) and records it;
  /// returns the held value, or throws if the build did not succeed.
  private static func leave(
    _ node: AnyNode, _ latch: BuildLatch, _ context: BuildContext, since start: UInt64,
    _ outcome: BuildLatch.Outcome?
  ) throws(DeferredError) -> Held? {
    remove(context)
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
  /// The duration in whole nanoseconds, saturated: negative is zero, beyond about 584 years
  /// `UInt64.max`. Every duration the app hands in is converted through it.
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
  /// The time `duration` from now; `distantFuture` beyond about 146 years. In uptime
  /// nanoseconds, not Dispatch's `Int` intervals, which are 32 bits on some watches.
  static func after(_ duration: Duration) -> DispatchTime {
    let nanoseconds = duration.nanoseconds
    guard nanoseconds < 1 << 62 else { return .distantFuture }
    return DispatchTime(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds + nanoseconds)
  }
}
