extension LaunchReport {
  /// How long a frame lasts at 60 Hz: a build longer than this on the way to the first frame,
  /// or on the main thread, is felt.
  static let frame = Duration.nanoseconds(16_666_667)

  /// The changes worth making to this launch, each with its estimated saving, worked out from
  /// the report's facts: its builds, the main thread's waits (``hazards``), what the app was
  /// handed before the first frame (``firstFrameUses``) and what nothing used
  /// (``unusedServices``). ``Container/launchReport(criticalShareLimit:)`` stores them in
  /// ``advice``.
  ///
  /// Each kind (``Advice/Kind``) says when it applies. The saving is what the report shows
  /// would move: for ``Advice/Kind/deferCritical``, the service's own build on the thread that
  /// called `launch()` and those built only for it; for ``Advice/Kind/deferFirstFrameBuild``,
  /// its own time less what the main thread built meanwhile; for
  /// ``Advice/Kind/raisePriority``, the time it was queued, or the main thread's wait if it
  /// was not; for ``Advice/Kind/makeOnDemand``, its background build; for
  /// ``Advice/Kind/criticalChain``, what shortening each build on it to a frame would save.
  ///
  /// - Returns: The advice, by kind (in the order of ``Advice/Kind``'s cases), then by saving,
  ///   largest first.
  public func advise() -> [Advice] {
    guard hasFiguresInRange else { return figuresInRange.advise() }
    var advice: [Advice] = []
    let firstFrame = offset(of: .firstFrame)
    let unused = Set(unusedServices)

    // Builds on the way to the first frame that the app asked for itself.
    var movable: [String: Duration] = [:]
    if let firstFrame {
      let mainBuilds = builds.filter { $0.isMainThread && $0.requestedBy == nil }
      for build in builds
      where build.trigger == .onDemand && build.requestedBy == nil && build.outcome == .built
        && build.end <= firstFrame && build.stage != .critical
      {
        var saving = build.selfDuration
        if !build.isMainThread {
          let overlap = mainBuilds.reduce(Duration.zero) { total, main in
            let (from, to) = (max(main.start, build.start), min(main.end, build.end))
            return to > from ? total + (to - from) : total
          }
          saving = saving > overlap ? saving - overlap : .zero
        }
        guard saving > .zero else { continue }
        movable[build.service, default: .zero] += saving
        let meanwhile =
          build.isMainThread
          ? "on the main thread" : "while the main thread built nothing else"
        advice.append(
          Advice(
            kind: .deferFirstFrameBuild, service: build.service, priority: build.priority,
            suggestion: .afterFirstFrame(), saving: saving, effect: .firstFrame,
            detail: "The app resolved \(build.service) before the first frame; it was built then,"
              + " \(meanwhile), in \(milliseconds(build.selfDuration)). If the first frame does"
              + " not show it, resolve it after firstFrameDrawn() or give it"
              + " .afterFirstFrame(): the first frame comes about \(milliseconds(saving))"
              + " sooner."))
      }
    }

    let roots = Set(firstFrameUses)
    let needed = closure(of: roots)
    let neededOnceMoved = closure(of: roots.subtracting(movable.keys))
    var deferred: Set<String> = []
    if firstFrame != nil {
      for build in builds
      where build.trigger == .launch && build.stage == .critical && build.outcome == .built
        && !neededOnceMoved.contains(build.service)
      {
        let promoted = builds.filter {
          $0.trigger == .launch && $0.stage != .critical && $0.requestedBy == build.service
            && !neededOnceMoved.contains($0.service)
        }
        let saving = promoted.reduce(build.selfDuration) { $0 + $1.selfDuration }
        let usedLater = !unused.contains(build.service)
        let suggestion: Priority = usedLater ? .afterFirstFrame() : .onDemand
        deferred.insert(build.service)
        var why = "nothing handed out before the first frame needs it"
        if needed.contains(build.service) {
          let through = movable.keys.filter { closure(of: [$0]).contains(build.service) }.sorted()
          why =
            "only \(through.joined(separator: ", ")), which may move after the first frame"
            + " too, needs it before the first frame"
        }
        var built = "built in launch(), it took \(milliseconds(build.selfDuration))"
        if !promoted.isEmpty {
          built +=
            " (and \(promoted.map(\.service).sorted().joined(separator: ", ")), built for it,"
            + " \(milliseconds(saving - build.selfDuration)))"
        }
        built += " on the \(build.isMainThread ? "main thread" : "thread that launched")"
        let use =
          usedLater
          ? "give it .afterFirstFrame()" : "nothing used it at all: give it .onDemand"
        advice.append(
          Advice(
            kind: .deferCritical, service: build.service, priority: build.priority,
            suggestion: suggestion, saving: saving, effect: .firstFrame,
            detail: "\(build.service) is critical, but \(why): \(built). To start the first"
              + " frame about \(milliseconds(saving)) sooner, \(use)."))
      }
    }

    // The main thread's waits, by service.
    var waits: [String: Duration] = [:]
    var waitOrder: [String] = []
    for hazard in hazards where hazard.kind == .mainThreadWait {
      guard let duration = hazard.duration else { continue }
      if waits[hazard.service] == nil { waitOrder.append(hazard.service) }
      waits[hazard.service, default: .zero] += duration
    }
    let fullyReady = offset(of: .fullyReady)
    for service in waitOrder {
      guard let waited = waits[service],
        let build = builds.last(where: { $0.service == service && $0.waited > .zero }),
        build.stage != .critical
      else { continue }
      let began = build.end > waited ? build.end - waited : .zero
      let early = firstFrame.map { began < $0 } ?? true
      guard early || fullyReady.map({ began < $0 }) ?? true else { continue }
      let effect: Advice.Effect = early ? .firstFrame : .mainThread
      let when = early ? "before the first frame" : "before the launch was fully ready"
      let queued = build.queued ?? .zero
      if build.trigger == .scheduled && build.qos != .userInitiated && queued > .zero {
        let saving = min(waited, queued)
        advice.append(
          Advice(
            kind: .raisePriority, service: service, priority: build.priority,
            suggestion: .afterFirstFrame(.userInitiated), saving: saving, effect: effect,
            detail: "The main thread waited \(milliseconds(waited)) for \(service) \(when);"
              + " it had been queued \(milliseconds(queued)) at \(build.qos.map { "\($0)" } ?? "its")"
              + " quality of service. Give it .afterFirstFrame(.userInitiated): the wait"
              + " shrinks by up to \(milliseconds(saving))."))
      } else {
        advice.append(
          Advice(
            kind: .raisePriority, service: service, priority: build.priority,
            suggestion: .critical, saving: waited, effect: effect, cost: build.selfDuration,
            detail: "The main thread waited \(milliseconds(waited)) for \(service) \(when),"
              + " while another thread built it. Make it .critical: the main thread no longer"
              + " waits, but its \(milliseconds(build.selfDuration)) build comes before the"
              + " first frame."))
      }
    }

    var latest: [String: BuildRecord] = [:]
    for build in builds where build.outcome != .cancelled { latest[build.service] = build }
    for build in latest.values
    where build.trigger == .scheduled && build.outcome == .built && unused.contains(build.service)
      && build.stage != .onDemand
    {
      advice.append(
        Advice(
          kind: .makeOnDemand, service: build.service, priority: build.priority,
          suggestion: .onDemand, saving: build.duration, effect: .background,
          detail: "\(build.service) (\(build.priority)) was built in the background, in"
            + " \(milliseconds(build.duration)), and nothing used it. Give it .onDemand: that"
            + " work is saved until something needs it."))
    }

    if let (chain, _) = firstFrameChain(without: deferred.union(movable.keys)) {
      let costs = Dictionary(
        builds.filter { chain.contains($0.service) }.map { ($0.service, $0.selfDuration) },
        uniquingKeysWith: +)
      let over = chain.compactMap { service -> (String, Duration)? in
        guard let cost = costs[service], cost > Self.frame else { return nil }
        return (service, cost - Self.frame)
      }
      if !over.isEmpty {
        let saving = over.reduce(Duration.zero) { $0 + $1.1 }
        let total = chain.reduce(Duration.zero) { $0 + (costs[$1] ?? .zero) }
        let slow = over.map { "\($0.0) (\(milliseconds(costs[$0.0] ?? .zero)))" }
        advice.append(
          Advice(
            kind: .criticalChain, service: chain[0], priority: latest[chain[0]]?.priority,
            saving: saving, effect: .firstFrame, chain: chain,
            detail: "The first frame waits for the chain \(chain.joined(separator: " → ")),"
              + " \(milliseconds(total)) of builds. \(slow.joined(separator: ", "))"
              + " \(over.count == 1 ? "takes" : "take") longer than a frame: speeding"
              + " \(over.count == 1 ? "it" : "each") up to a frame, or moving part of"
              + " \(over.count == 1 ? "its" : "their") work after the first frame, saves up to"
              + " \(milliseconds(saving))."))
      }
    }

    let order = Dictionary(
      uniqueKeysWithValues: Advice.Kind.allCases.enumerated().map { ($1, $0) })
    return advice.sorted {
      (order[$0.kind] ?? 0, $1.saving, $0.service) < (order[$1.kind] ?? 0, $0.saving, $1.service)
    }
  }

  /// The heaviest chain of dependencies among the services built before the first frame
  /// (at launch, or on demand), leaving out `excluded`, by the builds' own time; `nil` without
  /// a first frame or such builds.
  func firstFrameChain(without excluded: Set<String> = []) -> (
    chain: [String], total: Duration
  )? {
    guard let firstFrame = offset(of: .firstFrame) else { return nil }
    var cost: [String: Duration] = [:]
    for build in builds
    where build.outcome == .built && build.end <= firstFrame && build.trigger != .scheduled
      && !excluded.contains(build.service)
    {
      cost[build.service, default: .zero] += build.selfDuration
    }
    let chain = heaviestChain(
      services: cost.keys.sorted(), dependencies: dependencies, cost: cost)
    return chain.path.isEmpty ? nil : (chain.path, chain.total)
  }

  /// `services` and everything they need, by ``dependencies``.
  func closure(of services: Set<String>) -> Set<String> {
    var reached = services
    var stack = Array(services)
    while let service = stack.popLast() {
      for need in dependencies[service] ?? [] where reached.insert(need).inserted {
        stack.append(need)
      }
    }
    return reached
  }
}

/// The chain of dependencies among `services` whose costs add up most (each service needing
/// the next), and that total: the DOT graph's critical path, and the advice's critical chain.
/// Ties go to the service that sorts first; a chain never visits a service twice.
package func heaviestChain(
  services: [String], dependencies: [String: [String]], cost: [String: Duration]
) -> (path: [String], total: Duration) {
  let known = Set(services)
  // Longest path by cost, over the dependency graph (iteratively, memoised).
  var best: [String: (total: Duration, next: String?)] = [:]
  for root in services {
    var stack: [(String, Bool)] = [(root, false)]
    var onPath: Set<String> = []
    while let (service, expanded) = stack.popLast() {
      if best[service] != nil { continue }
      let needs = (dependencies[service] ?? []).filter(known.contains)
      if expanded {
        onPath.remove(service)
        let next = needs.filter { best[$0] != nil }.max { best[$0]!.total < best[$1]!.total }
        best[service] = (
          (cost[service] ?? .zero) + (next.flatMap { best[$0]?.total } ?? .zero), next
        )
      } else {
        onPath.insert(service)
        stack.append((service, true))
        for need in needs where best[need] == nil && !onPath.contains(need) {
          stack.append((need, false))
        }
      }
    }
  }
  var path: [String] = []
  // No path when nothing took any time (nothing was built, say).
  let top = services.max {
    (best[$0]?.total ?? .zero, $1) < (best[$1]?.total ?? .zero, $0)
  }.flatMap { (best[$0]?.total ?? .zero) > .zero ? $0 : nil }
  var cursor = top
  while let service = cursor, !path.contains(service) {
    path.append(service)
    cursor = best[service]?.next
  }
  return (path, top.flatMap { best[$0]?.total } ?? .zero)
}
