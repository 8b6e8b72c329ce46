extension AnyNode {
  /// Makes this node's value available on `context`: builds this singleton and every singleton
  /// it declares, dependencies first. For a transient node, builds the singletons it declares.
  ///
  /// The walk is iterative, over an explicit stack, so a chain of 10,000 services needs no
  /// deeper native stack than a chain of one. A node is claimed before its dependencies are
  /// walked (so other threads wait instead of building it twice) and built once they are ready.
  /// Declared dependencies are looked up in the node's owner: a node a child container inherits
  /// from its parent takes its dependencies from the parent.
  func ensureReady(_ context: BuildContext) throws(DeferredError) {
    struct Frame {
      let node: AnyNode
      var expanded = false
      /// The attempt this context claimed, once it has.
      var attempt: Int?
    }
    var stack = RawStack<Frame>()
    stack.append(Frame(node: self))
    let baseDepth = context.chain.count
    do throws(DeferredError) {
      while !stack.isEmpty {
        let index = stack.count - 1
        let node = stack[index].node
        if stack[index].expanded {
          // Every dependency is ready: build it (a transient is made by whoever needs it).
          let attempt = stack.removeLast().attempt
          if let attempt { try node.build(context, attempt: attempt) }
          context.chain.removeLast()
          continue
        }
        stack[index].expanded = true
        if node.isAsync && !(node.scope == .singleton && node.isReady) {
          throw DeferredError(.asyncService, key: node.key, chain: context.chain + [node.key])
        }
        switch node.scope {
        case .singleton:
          switch node.claim(context) {
          case .ready:
            _ = stack.removeLast()
            continue
          case .claimed(let attempt):
            stack[index].attempt = attempt
          case .busy(let latch):
            try WaitGraph.wait(for: node, latch: latch, by: context, limit: node.owner.waitLimit)
            _ = stack.removeLast()
            continue
          case .ownedBySelf:
            throw DeferredError.cycle(closing: node.key, chain: context.chain)
          }
        case .transient:
          if context.chain.contains(node.key) {
            throw DeferredError.cycle(closing: node.key, chain: context.chain)
          }
        }
        context.chain.append(node.key)
        for dependency in (node.dependencies ?? []).reversed() {
          guard let next = node.owner.lookup(dependency.typeID, dependency.name) else {
            throw node.owner.missing(dependency, chain: context.chain)
          }
          // Most dependencies are built already: checked without retaining the node, whose
          // reference count threads building side by side would otherwise pass back and forth.
          if next._withUnsafeGuaranteedRef({ $0.scope == .singleton && $0.isReady }) { continue }
          stack.append(Frame(node: next.takeUnretainedValue()))
        }
      }
    } catch {
      stack.forEachElement { frame in
        if let attempt = frame.attempt { frame.node.fail(attempt: attempt, error) }
      }
      context.chain.removeSubrange(baseDepth...)
      throw error
    }
  }
}

extension AnyNode {
  /// Makes this node's value available to async code on `context`, blocking no thread of the
  /// cooperative pool: a synchronous service is built on a Dispatch queue; an async one is built
  /// on the calling task, its dependencies resolved as its factory asks for them.
  func ensureReadyAsync(_ context: BuildContext) async throws(DeferredError) {
    guard isAsync else {
      if scope == .singleton && isReady { return }
      try await offThePool(chain: context.chain) { threadContext throws(DeferredError) in
        try self.ensureReady(threadContext)
      }
      return
    }
    switch scope {
    case .transient:
      if context.chain.contains(key) {
        throw DeferredError.cycle(closing: key, chain: context.chain)
      }
    case .singleton:
      switch claim(context) {
      case .ready:
        return
      case .ownedBySelf:
        throw DeferredError.cycle(closing: key, chain: context.chain)
      case .busy(let latch):
        try await WaitGraph.waitAsync(for: self, latch: latch, by: context)
      case .claimed(let attempt):
        context.chain.append(key)
        defer { context.chain.removeLast() }
        try await buildAsync(context, attempt: attempt)
      }
    }
  }
}
