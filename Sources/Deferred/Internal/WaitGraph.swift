import Synchronization

/// The process-wide graph of which build context waits for which service.
///
/// A context about to block on a service another context is building first walks the graph
/// under ``lock``: from the service to its builder, to the service that builder waits for, to
/// that one's builder, and so on. Reaching itself means the wait would close a cycle, so it fails
/// at once with the loop named instead of hanging. Every hop reads the builder live, so every
/// context on a loop found this way is really blocked: no false alarms, and the last context to
/// close a loop always sees it.
enum WaitGraph {
  static let lock = Mutex<Void>(())

  /// Waits for `latch` (a build of `node` by another context) on behalf of `context`.
  static func wait(
    for node: AnyNode, latch: BuildLatch, by context: BuildContext, limit: Duration?
  ) throws(DeferredError) {
    try lock.withLock { _ throws(DeferredError) in
      var loop = context.chain + [node.key]
      var target = node
      var owner = node.currentLatch()?.owner
      while let current = owner {
        if current === context {
          let start = loop.firstIndex(of: loop[loop.count - 1]) ?? 0
          throw DeferredError(
            .cycle, key: node.key, chain: context.chain + [node.key], cycle: Array(loop[start...]))
        }
        guard let next = current.waitingOn else { break }
        let tail = current.waitingChain.firstIndex(of: target.key).map {
          current.waitingChain[($0 + 1)...]
        }
        loop += (tail ?? []) + [next.key]
        target = next
        owner = next.currentLatch()?.owner
      }
      context.waitingOn = node
      context.waitingChain = context.chain
    }
    node.owner.waitObserver.withLock { $0 }?(node.key)
    let outcome = latch.wait(limit: limit)
    lock.withLock { _ in
      context.waitingOn = nil
      context.waitingChain = []
    }
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
