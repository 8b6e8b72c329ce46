extension Container {
  /// Checks the dependency graph without running any factory, and returns every issue found.
  ///
  /// Errors, which make a build fail: a dependency with no registration (with the closest
  /// registered names), a cycle (its whole loop), a forward whose source does not conform
  /// where it can tell (``DeferredError/Code/notConforming``, see ``forward(_:as:name:)``), and
  /// a service built off the main actor that takes one promised to it
  /// (``ConcurrencyPromise/mainActor``, ``DeferredError/Code/mainActorRequired``). Warnings: a
  /// critical service that needs one that is not (which is then built before the first frame
  /// too), and, as ``DeferredError/Code/scopeMismatch``, a critical weak service and a root
  /// container's singleton that keeps a weak service alive for good. An issue names the
  /// ``Module`` that registered its service (``ValidationIssue/module``). Dependencies come
  /// from the factories' parameters, or from what a resolver factory resolved in past builds.
  ///
  /// ```swift
  /// @Test func graphIsValid() {
  ///   #expect(makeAppContainer().validate().isEmpty)
  /// }
  /// ```
  ///
  /// - Returns: The issues, empty when the graph is sound: the errors, missing services,
  ///   forwards that do not conform, then cycles, then the warnings; in a stable order.
  public func validate() -> [ValidationIssue] {
    let nodes = currentTable().nodes
    let roots = nodes.sorted { $0.key.description < $1.key.description }.map(\.value)
    var problems: [ValidationIssue] = []
    // The module that registered a service, if one did (most have no note: a lookup each).
    let modules = Dictionary(
      roots.compactMap { node in node.owner.note(for: node.key).map { (node.key, $0) } },
      uniquingKeysWith: { first, _ in first })
    func issue(_ severity: ValidationIssue.Severity, _ error: DeferredError, about: AnyServiceKey)
      -> ValidationIssue
    {
      ValidationIssue(severity, error, module: modules[about]?.module, service: about)
    }
    for node in roots {
      // An array nothing was contributed to is the empty collection: not missing.
      for dependency in node.knownDependencies
      where !node.owner.isRegistered(dependency) && dependency.wrappedKey == nil {
        problems.append(
          issue(.error, node.owner.missing(dependency, chain: [node.key]), about: node.key))
      }
    }
    for node in roots {
      guard let conformance = modules[node.key]?.conformance, let source = node.dependencies?.first,
        let sourceNode = node.owner.lookup(source), conformance(sourceNode) == false
      else { continue }
      let error = DeferredError(
        .notConforming, key: node.key, chain: [node.key],
        detail: "\(source) does not conform to \(node.key)")
      problems.append(issue(.error, error, about: node.key))
    }
    problems += cycles(from: roots).map { issue(.error, $0, about: $0.chainKeys.first ?? $0.key) }
    problems += mainActorPromisesBroken(roots).map { issue(.error, $0, about: $0.chainKeys[0]) }
    // An argument factory's priority is its dependencies': a critical one promotes them too.
    // A transient is made by whoever needs it: its edges are followed to what it needs.
    for node in roots
    where (node.kind.isCached || node.takesArgument) && node.priority.isCritical {
      for (needed, chain) in cachedDependencies(of: node) where !needed.priority.isCritical {
        let error = DeferredError(
          .criticalNeedsDeferred, key: needed.key, chain: chain,
          detail: needed.priority.description)
        problems.append(issue(.warning, error, about: node.key))
      }
    }
    problems += scopeMismatches(roots).map { issue(.warning, $0.error, about: $0.about) }
    return problems
  }

  /// The registered dependencies of `node`, each once with the chain to it, following plain
  /// transients (made with `node`) and forwards (their source) to what they need.
  private func cachedDependencies(of node: AnyNode) -> [(AnyNode, [AnyServiceKey])] {
    var found: [(AnyNode, [AnyServiceKey])] = []
    var seen: Set<ObjectIdentifier> = [ObjectIdentifier(node)]
    var pending: [(AnyNode, [AnyServiceKey])] = [(node, [node.key])]
    while let (current, chain) = pending.popLast() {
      for dependency in current.knownDependencies.reversed() {
        guard let needed = current.owner.lookup(dependency: dependency),
          seen.insert(ObjectIdentifier(needed)).inserted
        else { continue }
        let followed =
          (needed.kind == .transient && !needed.takesArgument)
          || needed.owner.note(for: needed.key)?.isForward == true
        if followed {
          pending.append((needed, chain + [dependency]))
        } else {
          found.append((needed, chain + [dependency]))
        }
      }
    }
    return found
  }

  /// Each service built off the main actor that takes as a dependency one registered with
  /// the promise that it is used only on the main actor (``ConcurrencyPromise/mainActor``).
  private func mainActorPromisesBroken(_ roots: [AnyNode]) -> [DeferredError] {
    var broken: [DeferredError] = []
    for node in roots where !node.isMainActor {
      for dependency in node.knownDependencies
      where node.owner.note(for: node.owner.edge(to: dependency))?.promise == .mainActor {
        broken.append(
          DeferredError(
            .mainActorRequired, key: dependency, chain: [node.key, dependency],
            detail: "it is registered as used only on the main actor, and \(node.key), built off"
              + " the main actor, takes it; register \(node.key) on the main actor too"
              + " (`registerMainActor`, or `promising: .mainActor`), or, if \(dependency) is"
              + " thread-safe, promise that instead (`promising: .threadSafe`)"))
      }
    }
    return broken
  }

  /// The warnings about scopes that defeat each other, each with the service whose
  /// registration to change.
  private func scopeMismatches(_ roots: [AnyNode]) -> [(error: DeferredError, about: AnyServiceKey)]
  {
    var warnings: [(error: DeferredError, about: AnyServiceKey)] = []
    for node in roots {
      if node.kind == .weak && node.priority.isCritical {
        let error = DeferredError(
          .scopeMismatch, key: node.key, chain: [node.key],
          detail: "a critical weak service is built before the first frame and let go at"
            + " once, unless something holds it; make it a singleton or on demand")
        warnings.append((error, node.key))
      }
      // Only a root container's singleton lives as long as the app: a child's goes with the
      // child, a named scope's with a reset, and the weak service with them.
      guard node.kind == .singleton && node.owner.parent == nil else { continue }
      for dependency in node.knownDependencies {
        guard let needed = node.owner.lookup(dependency: dependency), needed.kind == .weak else {
          continue
        }
        let error = DeferredError(
          .scopeMismatch, key: needed.key, chain: [node.key, needed.key],
          detail: "the singleton \(node.key) keeps it alive as long as the container"
            + " lives, so its weak scope lets nothing go: register \(needed.key) as a"
            + " singleton, or make \(node.key) transient, or register \(node.key) in the"
            + " child container whose life should bound them both")
        warnings.append((error, node.key))
      }
    }
    return warnings
  }

  /// Every distinct cycle reachable from `roots`, found by an iterative depth-first search.
  private func cycles(from roots: [AnyNode]) -> [DeferredError] {
    enum Mark { case onPath, done }
    var marks: [ObjectIdentifier: Mark] = [:]
    var seen: Set<[AnyServiceKey]> = []
    var found: [DeferredError] = []
    for root in roots where marks[ObjectIdentifier(root)] == nil {
      var path: [(node: AnyNode, next: Int, edges: [AnyNode])] = []
      func enter(_ node: AnyNode) {
        marks[ObjectIdentifier(node)] = .onPath
        let edges = node.knownDependencies.compactMap { node.owner.lookup(dependency: $0) }
        path.append((node, 0, edges))
      }
      enter(root)
      while let top = path.last {
        guard top.next < top.edges.count else {
          marks[ObjectIdentifier(top.node)] = .done
          path.removeLast()
          continue
        }
        path[path.count - 1].next += 1
        let next = top.edges[top.next]
        switch marks[ObjectIdentifier(next)] {
        case nil:
          enter(next)
        case .onPath:
          let start = path.firstIndex { $0.node === next } ?? 0
          let loop = path[start...].map(\.node.key)
          // One report per loop, whichever service it was entered from.
          let pivot = loop.indices.min { loop[$0].description < loop[$1].description } ?? 0
          let canonical = Array(loop[pivot...] + loop[..<pivot])
          if seen.insert(canonical).inserted {
            found.append(.cycle(closing: canonical[0], chain: canonical))
          }
        case .done:
          break
        }
      }
    }
    return found
  }
}
