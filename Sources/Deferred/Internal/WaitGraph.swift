import Synchronization

/// The process-wide graph of which build context waits for which service.
///
/// A context about to block on a service another context is building first walks the graph
/// under its lock: from the service to its builder, to the service that builder waits for, to
/// that one's builder, and so on. Reaching itself means the wait would close a cycle, so it fails
/// at once with the loop named instead of hanging. Every hop reads the builder live, so every
/// context on a loop found this way is really blocked: no false alarms, and the last context to
/// close a loop always sees it.
enum WaitGraph {
  /// What each blocked context waits for, and its chain when it began to wait.
  private struct Wait {
    let node: AnyNode
    let chain: [AnyServiceKey]
  }

  private static let waits = Locked<[ObjectIdentifier: Wait]>([:])

  /// Blocks until `latch` (a build of `node` by another context) finishes, on behalf of
  /// `context`.
  static func wait(
    for node: AnyNode, latch: BuildLatch, by context: BuildContext, limit: Duration?
  ) throws(DeferredError) {
    try enter(node, context)
    let start = node.owner.recorder.clock.now()
    let outcome = latch.wait(for: node, limit: limit)
    leave(context)
    node.owner.recorder.waited(for: node, attempt: latch.attempt, by: context, since: start)
    try check(outcome, node, latch, context)
  }

  /// Suspends until `latch` finishes, on behalf of `context`, blocking no thread.
  static func waitAsync(
    for node: AnyNode, latch: BuildLatch, by context: BuildContext
  ) async throws(DeferredError) {
    try enter(node, context)
    let start = node.owner.recorder.clock.now()
    let outcome = await latch.outcome(for: node)
    leave(context)
    node.owner.recorder.waited(for: node, attempt: latch.attempt, by: context, since: start)
    try check(outcome, node, latch, context)
  }

  /// Records that `context` waits for `node`, unless that would close a cycle.
  private static func enter(_ node: AnyNode, _ context: BuildContext) throws(DeferredError) {
    try waits.withLock { waits throws(DeferredError) in
      var loop = context.chain + [node.key]
      var target = node
      var owner = node.currentBuilder()
      while let current = owner {
        if current === context {
          let start = loop.firstIndex(of: loop[loop.count - 1]) ?? 0
          throw DeferredError(
            .cycle, key: node.key, chain: context.chain + [node.key], cycle: Array(loop[start...]))
        }
        guard let wait = waits[ObjectIdentifier(current)] else { break }
        let tail = wait.chain.firstIndex(of: target.key).map { wait.chain[($0 + 1)...] }
        loop += (tail ?? []) + [wait.node.key]
        target = wait.node
        owner = wait.node.currentBuilder()
      }
      waits[ObjectIdentifier(context)] = Wait(node: node, chain: context.chain)
    }
    node.owner.waitObserver.withLock { $0 }?(node.key)
  }

  private static func leave(_ context: BuildContext) {
    _ = waits.withLock { $0.removeValue(forKey: ObjectIdentifier(context)) }
  }

  private static func check(
    _ outcome: BuildLatch.Outcome?, _ node: AnyNode, _ latch: BuildLatch, _ context: BuildContext
  ) throws(DeferredError) {
    switch outcome {
    case nil:
      throw DeferredError(
        .waitTimedOut, key: node.key, chain: context.chain + [node.key],
        holder: latch.owner.thread.name)
    case .built?:
      return
    case .failed(let error)?:
      throw error.rechained(under: context.chain, at: node.key)
    }
  }
}
