extension Container {
  /// What the launch cost so far: milestones, every build of this container's services, and
  /// the hazards worth fixing.
  ///
  /// Call it whenever you like; a report made after ``fullyReady()`` covers the whole launch.
  /// With a launch history (`DeferredHistory`), it names the regressions against the launches
  /// before this one, and the history's problems reading or saving its storage.
  ///
  /// A child container's report has the child's milestones, its own builds, and the builds in
  /// its ancestors of the services it shares with them, each with the container it ran in
  /// (``BuildRecord/container``). The parent's report has its own builds only.
  ///
  /// - Parameter criticalShareLimit: The share of the critical phase above which one critical
  ///   initializer is named a hazard; a half by default.
  /// - Returns: The report.
  public func launchReport(criticalShareLimit: Double = 0.5) -> LaunchReport {
    let start = clock.processStart
    func offset(_ time: UInt64) -> Duration {
      Duration(nanoseconds: time > start.nanoseconds ? time - start.nanoseconds : 0)
    }
    let milestoneTimes = launchSchedule.withLock { $0.milestones }
    var milestones = [Milestone(.processStart, at: .zero)]
    let steps: [(Milestone.Kind, UInt64?)] = [
      (.launchBegan, milestoneTimes.launchBegan), (.criticalReady, milestoneTimes.criticalReady),
      (.firstFrame, milestoneTimes.firstFrame), (.fullyReady, milestoneTimes.fullyReady),
    ]
    for case (let kind, let time?) in steps { milestones.append(Milestone(kind, at: offset(time))) }

    var (raw, waits, transientStats, firstFrameNodes, dropped) = recorder.snapshot
    addShared(to: &raw, &waits, &transientStats, &dropped)
    struct WaitKey: Hashable {
      let node: ObjectIdentifier
      let attempt: Int
    }
    var waited: [WaitKey: (total: Duration, who: [String])] = [:]
    for wait in waits {
      let key = WaitKey(node: ObjectIdentifier(wait.node), attempt: wait.attempt)
      let who = wait.waiterService.map { "\($0) on \(wait.waiter.name)" } ?? wait.waiter.name
      waited[key, default: (.zero, [])].total += Duration(nanoseconds: wait.end &- wait.start)
      waited[key, default: (.zero, [])].who.append(who)
    }

    // By start; builds that started at the same reading keep the order they were logged in.
    let ordered = raw.enumerated().sorted {
      ($0.element.start, $0.offset) < ($1.element.start, $1.offset)
    }
    .map(\.element)
    var lastBuild: [ObjectIdentifier: Int] = [:]
    for (index, build) in ordered.enumerated() {
      let node = ObjectIdentifier(build.node)
      // A scheduled job's record of a failure its own factory did not make (attempt 0) does not
      // say who asked last when a build of the service ran beside it (the job waited for it):
      // that build does.
      if build.attempt == 0, case .failed = build.outcome, let last = lastBuild[node],
        ordered[last].end >= build.start
      {
        continue
      }
      lastBuild[node] = index
    }
    var builds: [BuildRecord] = []
    for build in ordered {
      let duration = build.end &- build.start
      let selfDuration = duration > build.nested ? duration - build.nested : 0
      let name = build.node.key.description
      let wait = waited[WaitKey(node: ObjectIdentifier(build.node), attempt: build.attempt)]
      var outcome = BuildRecord.Outcome.built
      var error: String?
      switch build.outcome {
      case .built: break
      case .failed(let failure):
        outcome = .failed
        error = failure.description
      case .cancelled: outcome = .cancelled
      }
      builds.append(
        BuildRecord(
          service: name, priority: build.priority, trigger: build.trigger,
          requestedBy: build.requestedBy?.description, thread: build.thread.name,
          isMainThread: build.thread.isMain, qos: build.qos,
          queued: build.queued.map(Duration.init(nanoseconds:)), start: offset(build.start),
          duration: Duration(nanoseconds: duration),
          selfDuration: Duration(nanoseconds: selfDuration),
          cpu: build.cpu.map(Duration.init(nanoseconds:)), waited: wait?.total ?? .zero,
          waiters: wait?.who ?? [], outcome: outcome, error: error, attempt: build.attempt,
          generation: build.generation, container: containerName(of: build.node)))
    }

    let transients = transientStats.map { service, stats in
      let samples = stats.samples.sorted()
      return TransientRecord(
        service: service.description, count: stats.count, timed: stats.timed,
        total: Duration(nanoseconds: stats.total),
        median: Duration(nanoseconds: samples.isEmpty ? 0 : samples[samples.count / 2]),
        max: Duration(nanoseconds: stats.max))
    }.sorted { $0.service < $1.service }

    var hazards: [Hazard] = []
    for wait in waits where wait.waiter.isMain {
      let duration = Duration(nanoseconds: wait.end &- wait.start)
      hazards.append(
        Hazard(
          kind: .mainThreadWait, service: wait.node.key.description,
          detail: "The main thread waited \(milliseconds(duration)) for \(wait.node.key),"
            + " which another thread was building.",
          duration: duration))
    }
    for (index, build) in ordered.enumerated() {
      let name = build.node.key.description
      let duration = Duration(nanoseconds: build.end &- build.start)
      if build.trigger == .launch && build.priority.stage != .critical {
        let by = build.requestedBy.map { " because \($0) needs it" } ?? ""
        hazards.append(
          Hazard(
            kind: .promoted, service: name,
            detail: "\(name) (\(build.priority)) was built before the first frame\(by).",
            duration: duration))
      }
      if build.trigger == .scheduled && build.thread.isMain && duration > LaunchReport.frame {
        hazards.append(
          Hazard(
            kind: .longMainLaneBuild, service: name,
            detail: "\(name) took \(milliseconds(duration)) on the main-thread lane, longer than"
              + " a frame: build what it needs in the background, or defer part of its work.",
            duration: duration))
      }
      // Only the latest build of a service says whether it is still unused or unasked for.
      if build.trigger == .scheduled, lastBuild[ObjectIdentifier(build.node)] == index {
        switch build.outcome {
        case .built where !build.node.wasUsed:
          hazards.append(
            Hazard(
              kind: .unusedWarmUp, service: name,
              detail: "\(name) was built in the background but nothing has used it yet.",
              duration: duration))
        case .failed(let failure):
          hazards.append(
            Hazard(
              kind: .unaskedFailure, service: name,
              detail: "\(name) failed to build in the background and nobody has asked for it"
                + " since: \(failure)"))
        default: break
        }
      }
    }
    if let begin = milestoneTimes.launchBegan, let end = milestoneTimes.criticalReady,
      case let critical = offset(end) - offset(begin), critical > .zero
    {
      for build in builds where build.trigger == .launch {
        let share = build.selfDuration / critical
        guard share > criticalShareLimit else { continue }
        hazards.append(
          Hazard(
            kind: .largeShare, service: build.service,
            detail: "\(build.service) took \(milliseconds(build.selfDuration)),"
              + " \(Int((share * 100).rounded()))% of the critical phase"
              + " (more than \(Int((criticalShareLimit * 100).rounded()))%).",
            duration: build.selfDuration))
      }
    }

    if let pastLaunches {
      // Compared with the launches before this one, even once this one is recorded.
      let word = historyToken.loadAcquire()
      let token = word == 0 ? nil : Int(Int64(bitPattern: word))
      hazards += pastLaunches.hazards(builds: builds, milestones: milestones, token: token)
    }
    hazards += recorder.observation.hazards

    var dependencies: [String: [String]] = [:]
    for node in currentTable().nodes.values {
      let needs = node.knownDependencies.map { node.owner.edge(to: $0).description }
      if !needs.isEmpty { dependencies[node.key.description] = needs }
    }
    var unused: Set<String> = []
    for (index, build) in ordered.enumerated()
    where lastBuild[ObjectIdentifier(build.node)] == index && !build.node.wasUsed {
      if case .built = build.outcome { unused.insert(build.node.key.description) }
    }
    var report = LaunchReport(
      processStart: start.source, processStartPrecision: Duration(nanoseconds: start.precision),
      processStartKind: start.kind,
      milestones: milestones,
      builds: builds, transients: transients, hazards: hazards, dependencies: dependencies,
      firstFrameUses: firstFrameNodes.map(\.key.description).sorted(),
      unusedServices: unused.sorted(), droppedRecords: dropped)
    report.advice = report.advise()
    return report
  }
}

extension Container {
  /// Adds to a snapshot of this container's records its ancestors' about the nodes it shares.
  private func addShared(
    to builds: inout [RawBuild], _ waits: inout [RawWait],
    _ transients: inout [(service: AnyServiceKey, stats: TransientStats)], _ dropped: inout Int
  ) {
    guard parent != nil else { return }
    // What this container resolves, by key, as validation reads it.
    let visible = currentTable().nodes
    var ancestor = parent
    while let current = ancestor {
      let shared = current.recorder.snapshot
      builds += shared.builds.filter { visible[$0.node.key] === $0.node }
      waits += shared.waits.filter { visible[$0.node.key] === $0.node }
      transients += shared.transients.filter {
        visible[$0.service]?.isOwned(by: current) == true
      }
      dropped += shared.dropped
      ancestor = current.parent
    }
  }

  /// Where `node` was built: `nil` for this container, `root`, or where the child was made.
  private func containerName(of node: AnyNode) -> String? {
    if node.isOwned(by: self) { return nil }
    let owner = node.owner
    return owner.parent == nil ? "root" : owner.origin ?? "child"
  }
}

/// `12.34 ms`: a duration in nanoseconds, as the reports print it.
package func milliseconds(_ nanoseconds: UInt64) -> String {
  // Rounded to the nearest hundredth without adding to `nanoseconds`, which may be the
  // largest there is.
  let hundredths = nanoseconds / 10_000 + (nanoseconds % 10_000 >= 5_000 ? 1 : 0)
  let fraction = hundredths % 100
  return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
}
