import Testing

@testable import Deferred

/// The launch schedule's transitions, one by one, on a value: no thread, no scheduler, no
/// build. Nodes are real, registered in a container that never builds them.
@Suite struct LaunchScheduleTests {
  typealias Phase = LaunchSchedule.Phase

  /// A container to register nodes in, by name.
  final class Graph {
    let container = Container(scheduler: ManualScheduler())

    /// Registers `name` needing `needs` (at most two), and returns its node.
    @discardableResult
    func node(
      _ name: String, _ priority: Priority = .afterFirstFrame(), needs: [String] = [],
      async: Bool = false
    ) throws -> AnyNode {
      let key = ServiceKey<Box>(name: name)
      let keys = needs.map { ServiceKey<Box>(name: $0) }
      switch (needs.count, async) {
      case (0, false): try container.register(key, priority: priority) { _ in Box(0) }
      case (0, true):
        try container.register(Box.self, name: name, priority: priority) { () async in Box(0) }
      case (1, false):
        try container.register(key, priority: priority, dependencies: keys[0]) { _ in Box(0) }
      case (1, true):
        try container.register(
          key, priority: priority, dependencies: keys[0], factory: { (_: Box) async in Box(0) })
      default:
        try container.register(key, priority: priority, dependencies: keys[0], keys[1]) { _, _ in
          Box(0)
        }
      }
      return try #require(container.lookup(key.erased))
    }
  }

  /// Counts readiness callbacks, called synchronously by the test when work asks for it.
  final class Calls: @unchecked Sendable {
    var count = 0
  }

  static let phases: [Phase] = [
    .notLaunched, .launching, .launched, .deferring, .fullyReady, .shutDown,
  ]

  /// A schedule brought to `phase` through its transitions; in `deferring`, one entry (of
  /// `pending`) is scheduled and not built.
  static func schedule(in phase: Phase, pending: AnyNode? = nil, width: Int = 2) -> LaunchSchedule {
    var schedule = LaunchSchedule(width: width)
    if phase == .shutDown {
      _ = schedule.shutDown()
      return schedule
    }
    guard phase != .notLaunched else { return schedule }
    #expect(schedule.beginLaunch(flags: [], now: 1) == nil)
    guard phase != .launching else { return schedule }
    #expect(schedule.endLaunch(succeeded: true, now: 2) == nil)
    guard phase != .launched else { return schedule }
    let nodes = phase == .deferring ? [pending].compactMap { $0 } : []
    _ = schedule.firstFrameDrawn(nodes: nodes, now: 3)
    #expect(schedule.phase == phase)
    return schedule
  }

  /// The names of the builds' services.
  static func names(_ builds: [ScheduledBuild]) -> [String] {
    builds.map { $0.node.key.name ?? "" }
  }

  /// Performs the readiness part of `work` the way the container does, on this thread.
  static func tell(_ work: LaunchWork) {
    for case .callback(let callback) in work.ready { callback() }
  }

  // MARK: - The launch

  @Test(arguments: phases)
  func beginLaunchOnlyFromNotLaunched(from phase: Phase) throws {
    let graph = Graph()
    var schedule = Self.schedule(in: phase, pending: try graph.node("a"))
    let error = schedule.beginLaunch(flags: ["f"], now: 10)
    if phase == .notLaunched {
      #expect(error == nil)
      #expect(schedule.phase == .launching)
      #expect(schedule.flags == ["f"])
      #expect(schedule.milestones.launchBegan == 10)
    } else {
      #expect(error?.code == .launchOrder)
      #expect(
        error?.description.contains(
          phase == .shutDown ? "shut down" : "launch() was called again") == true)
      #expect(schedule.phase == phase)
    }
  }

  @Test(arguments: phases, [true, false])
  func endLaunchOnlyFromLaunchingAndShutDownStays(from phase: Phase, succeeded: Bool) throws {
    let graph = Graph()
    var schedule = Self.schedule(in: phase, pending: try graph.node("a"))
    let error = schedule.endLaunch(succeeded: succeeded, now: 10)
    switch phase {
    case .launching:
      #expect(error == nil)
      #expect(schedule.phase == (succeeded ? .launched : .notLaunched))
      #expect(schedule.milestones.criticalReady == (succeeded ? 10 : nil))
    case .shutDown:
      #expect(error?.code == .shutDown)
      #expect(schedule.phase == .shutDown)
    default:
      #expect(error?.code == .launchOrder)
      #expect(schedule.phase == phase)
    }
  }

  @Test(arguments: phases)
  func firstFrameDrawnOnlyFromLaunched(from phase: Phase) throws {
    let graph = Graph()
    let a = try graph.node("a")
    var schedule = Self.schedule(in: phase, pending: a)
    var read = false
    let result = schedule.firstFrameDrawn(
      nodes: {
        read = true
        return [a]
      }(), now: 10)
    switch phase {
    case .launched:
      let work = try result.get()
      #expect(read)
      #expect(schedule.phase == .deferring)
      #expect(schedule.milestones.firstFrame == 10)
      #expect(Self.names(work.submit) == ["a"])
    case .deferring, .fullyReady:
      #expect(try result.get().submit.isEmpty)
      #expect(!read)
      #expect(schedule.phase == phase)
    default:
      #expect(throws: DeferredError.self) { try result.get() }
      #expect(!read)
      #expect(schedule.phase == phase)
    }
  }

  @Test func firstFrameWithNothingToBuildIsFullyReadyAtOnce() throws {
    let graph = Graph()
    let onDemand = try graph.node("a", .onDemand)
    var schedule = Self.schedule(in: .launched)
    let calls = Calls()
    _ = schedule.addFullyReadyWaiter(.callback { calls.count += 1 })
    let work = try schedule.firstFrameDrawn(nodes: [onDemand], now: 7).get()
    #expect(schedule.phase == .fullyReady)
    #expect(schedule.milestones.fullyReady == 7)
    Self.tell(work)
    #expect(calls.count == 1)
  }

  // MARK: - Adopting a late registration

  @Test(arguments: phases)
  func adoptOnlyOnceTheFirstFrameIsDrawn(in phase: Phase) throws {
    let graph = Graph()
    var schedule = Self.schedule(in: phase, pending: try graph.node("a"))
    let late = try graph.node("late")
    let work = schedule.adopt(node: late, now: 10)
    switch phase {
    case .deferring, .fullyReady:
      #expect(Self.names(work.submit) == ["late"])
      #expect(schedule.entry(for: late)?.status == .submitted)
      // Ready once a launch: a late entry does not make a ready app not ready.
      #expect(schedule.phase == phase)
    default:
      #expect(work.submit.isEmpty)
      #expect(schedule.entry(for: late) == nil)
    }
  }

  /// The two steps of a registration racing the first frame, in both orders: the node is
  /// scheduled exactly once.
  @Test func adoptAndTheFirstFrameLinearize() throws {
    let graph = Graph()
    let late = try graph.node("late")
    // The registration decides first (before the first frame): the first frame's read of the
    // table holds the node.
    var before = Self.schedule(in: .launched)
    #expect(before.adopt(node: late, now: 1).submit.isEmpty)
    #expect(Self.names(try before.firstFrameDrawn(nodes: [late], now: 2).get().submit) == ["late"])
    // The first frame first, its read holding the node already: adopting again does nothing.
    var holding = Self.schedule(in: .launched)
    #expect(try holding.firstFrameDrawn(nodes: [late], now: 1).get().submit.count == 1)
    #expect(holding.adopt(node: late, now: 2).submit.isEmpty)
    #expect(holding.entryID(for: late) == 0)
    #expect(holding.remaining == 1)
    // The first frame first, its read missing the node: adopting schedules it, and readiness
    // waits for it.
    let other = try graph.node("other")
    var missing = Self.schedule(in: .launched)
    #expect(try missing.firstFrameDrawn(nodes: [other], now: 1).get().submit.count == 1)
    #expect(Self.names(missing.adopt(node: late, now: 2).submit) == ["late"])
    #expect(missing.remaining == 2)
  }

  @Test func adoptedEntryIsGatedOnScheduledDependencies() throws {
    let graph = Graph()
    let a = try graph.node("a")
    var schedule = Self.schedule(in: .deferring, pending: a)
    let late = try graph.node("late", needs: ["a"])
    #expect(schedule.adopt(node: late, now: 4).submit.isEmpty)
    #expect(schedule.entry(for: late)?.status == .blocked)
    let idA = try #require(schedule.entryID(for: a))
    let started = schedule.start(idA, now: 5)
    #expect(started?.id == idA)
    #expect(started?.node === a)
    let work = schedule.finish(idA, .built, now: 6)
    #expect(Self.names(work.submit) == ["late"])
  }

  // MARK: - Idle entries

  @Test(arguments: phases)
  func idleEntriesAreReleasedByTheirDelayOrByIdleness(in phase: Phase) throws {
    let graph = Graph()
    let short = try graph.node("short", .idle(after: .seconds(1)))
    let long = try graph.node("long", .idle(after: .seconds(9)))
    var schedule = LaunchSchedule(width: 4)
    _ = schedule.beginLaunch(flags: [], now: 0)
    _ = schedule.endLaunch(succeeded: true, now: 0)
    let work = try schedule.firstFrameDrawn(nodes: [short, long], now: 0).get()
    #expect(work.timers == [.seconds(1), .seconds(9)])
    #expect(work.submit.isEmpty)
    #expect(Self.names(schedule.releaseIdle(upTo: .seconds(1), now: 1).submit) == ["short"])
    #expect(schedule.entry(for: long)?.status == .blocked)
    #expect(Self.names(schedule.appIsIdle(now: 2).submit) == ["long"])
    // Nothing to release where nothing idle is scheduled.
    var other = Self.schedule(in: phase, pending: try graph.node("a"))
    #expect(other.releaseIdle(upTo: nil, now: 3).submit.isEmpty)
  }

  @Test func idlenessBeforeTheFirstFrameReleasesIdleEntriesAtOnce() throws {
    let graph = Graph()
    let idle = try graph.node("idle", .idle(after: .seconds(9)))
    var schedule = Self.schedule(in: .launched)
    #expect(schedule.appIsIdle(now: 1).submit.isEmpty)
    #expect(
      Self.names(try schedule.firstFrameDrawn(nodes: [idle], now: 2).get().submit) == ["idle"])
  }

  // MARK: - Pause and resume

  @Test func pauseHoldsBuildsBackAndStartPutsThemBack() throws {
    let graph = Graph()
    let a = try graph.node("a")
    let b = try graph.node("b")
    var schedule = Self.schedule(in: .launched, width: 1)
    schedule.pause()
    #expect(try schedule.firstFrameDrawn(nodes: [a, b], now: 1).get().submit.isEmpty)
    #expect(Self.names(schedule.resume().submit) == ["a"])
    schedule.pause()
    // A submitted build that comes up while paused goes back to its queue, out of flight.
    let idA = try #require(schedule.entryID(for: a))
    #expect(schedule.start(idA, now: 2) == nil)
    #expect(schedule.entry(idA).status == .ready)
    #expect(schedule.inFlight == 0)
    #expect(Self.names(schedule.resume().submit) == ["a"])
    #expect(schedule.inFlight == 1)
  }

  @Test(arguments: phases)
  func resumeWithNothingHeldBackSubmitsNothing(in phase: Phase) throws {
    let graph = Graph()
    var schedule = Self.schedule(in: phase, pending: try graph.node("a"))
    schedule.pause()
    #expect(schedule.paused)
    #expect(schedule.resume().submit.isEmpty)
    #expect(!schedule.paused)
  }

  // MARK: - Shutdown

  @Test(arguments: phases)
  func shutDownIsFinalFromEveryPhase(from phase: Phase) throws {
    let graph = Graph()
    var schedule = Self.schedule(in: phase, pending: try graph.node("a"))
    let calls = Calls()
    Self.tell(schedule.addFullyReadyWaiter(.callback { calls.count += 1 }))
    let work = schedule.shutDown()
    #expect(schedule.phase == .shutDown)
    #expect(work.awaitRunning == (phase == .deferring || phase == .fullyReady))
    // A waiter not told yet is handed back to be failed (a callback, to be released).
    #expect(work.shutDown.count == (phase == .fullyReady || phase == .shutDown ? 0 : 1))
    #expect(work.ready.isEmpty)
    #expect(calls.count == (phase == .fullyReady ? 1 : 0))
    #expect(schedule.shutDown().shutDown.isEmpty)  // again: nothing
    #expect(schedule.beginLaunch(flags: [], now: 9)?.code == .launchOrder)
    #expect(throws: DeferredError.self) { try schedule.firstFrameDrawn(nodes: [], now: 9).get() }
    #expect(!schedule.isFullyReady)
  }

  @Test func shutDownCancelsWhatHasNotStartedAndLetsRunningBuildsEnd() throws {
    let graph = Graph()
    let a = try graph.node("a")
    let b = try graph.node("b")
    let c = try graph.node("c", needs: ["a"])
    var schedule = Self.schedule(in: .launched, width: 1)
    let submitted = try schedule.firstFrameDrawn(nodes: [a, b, c], now: 1).get().submit
    #expect(Self.names(submitted) == ["a"])
    let idA = try #require(schedule.entryID(for: a))
    let started = schedule.start(idA, now: 2)
    #expect(started != nil)
    let work = schedule.shutDown()
    #expect(Set(Self.names(work.cancelled)) == ["b", "c"])
    #expect(schedule.entry(idA).status == .running)
    let end = schedule.finish(idA, .built, now: 3)
    #expect(schedule.entry(idA).status == .built)
    #expect(end.submit.isEmpty)
    #expect(end.ready.isEmpty)
    #expect(schedule.entry(for: c)?.status == .cancelled)
  }

  @Test func shutDownDuringLaunchIsReportedByItsEnd() {
    var schedule = Self.schedule(in: .launching)
    _ = schedule.shutDown()
    #expect(schedule.endLaunch(succeeded: true, now: 1)?.code == .shutDown)
    #expect(schedule.endLaunch(succeeded: false, now: 1)?.code == .shutDown)
    #expect(schedule.phase == .shutDown)
  }

  // MARK: - Readiness waiters

  @Test(arguments: phases)
  func fullyReadyWaiterIsToldOnceWhateverThePhase(in phase: Phase) throws {
    let graph = Graph()
    let a = try graph.node("a")
    var schedule = Self.schedule(in: phase, pending: a)
    let calls = Calls()
    let work = schedule.addFullyReadyWaiter(.callback { calls.count += 1 })
    Self.tell(work)
    #expect(calls.count == (phase == .fullyReady ? 1 : 0))
    #expect(work.shutDown.count == (phase == .shutDown ? 1 : 0))
    if phase == .deferring {
      let id = try #require(schedule.entryID(for: a))
      _ = schedule.start(id, now: 4)
      Self.tell(schedule.finish(id, .failed, now: 5))
      #expect(schedule.phase == .fullyReady)
      #expect(calls.count == 1)
      Self.tell(schedule.adopt(node: try graph.node("late"), now: 6))
      #expect(calls.count == 1)
    }
  }

  // MARK: - Builds

  @Test func startOnlyASubmittedEntry() throws {
    let graph = Graph()
    let a = try graph.node("a")
    let b = try graph.node("b", needs: ["a"])
    var schedule = Self.schedule(in: .launched)
    _ = try schedule.firstFrameDrawn(nodes: [a, b], now: 1).get()
    let idA = try #require(schedule.entryID(for: a))
    let idB = try #require(schedule.entryID(for: b))
    #expect(schedule.entry(idB).status == .blocked)
    #expect(schedule.start(idB, now: 2) == nil)  // blocked: refused
    let started = schedule.start(idA, now: 2)
    let run = try #require(started)
    #expect(run.readyAt == 1)
    #expect(run.id == idA && run.node === a)
    #expect(schedule.entry(idA).status == .running)
    #expect(schedule.start(idA, now: 3) == nil)  // running already: refused
  }

  @Test func finishOnlyARunningEntry() throws {
    let graph = Graph()
    let a = try graph.node("a")
    var schedule = Self.schedule(in: .launched)
    _ = try schedule.firstFrameDrawn(nodes: [a], now: 1).get()
    let id = try #require(schedule.entryID(for: a))
    _ = schedule.finish(id, .built, now: 2)  // submitted, not running: refused
    #expect(schedule.entry(id).status == .submitted)
    #expect(schedule.remaining == 1)
    _ = schedule.start(id, now: 2)
    _ = schedule.finish(id, .built, now: 3)
    #expect(schedule.entry(id).status == .built)
    _ = schedule.finish(id, .failed, now: 4)  // ended already: refused
    #expect(schedule.entry(id).status == .built)
    #expect(schedule.phase == .fullyReady)
    #expect(schedule.milestones.fullyReady == 3)
  }

  @Test func aFailedBuildSkipsWhatNeedsItButNotWhatRuns() throws {
    let graph = Graph()
    let a = try graph.node("a")
    let b = try graph.node("b", needs: ["a"])
    let c = try graph.node("c", needs: ["b"])
    let d = try graph.node("d", .onDemand, needs: ["a"])
    let e = try graph.node("e", needs: ["d"])  // through an on-demand service
    var schedule = Self.schedule(in: .launched)
    _ = try schedule.firstFrameDrawn(nodes: [a, b, c, d, e], now: 1).get()
    let idA = try #require(schedule.entryID(for: a))
    _ = schedule.start(idA, now: 2)
    let work = schedule.finish(idA, .failed, now: 3)
    #expect(schedule.entry(idA).status == .failed)
    for skipped in [b, c, e] { #expect(schedule.entry(for: skipped)?.status == .skipped) }
    #expect(schedule.entry(for: d) == nil)
    #expect(schedule.phase == .fullyReady)
    #expect(work.submit.isEmpty)
    #expect(schedule.inFlight == 0)
  }

  @Test func finishingCarriesOnWithABuildOfItsQualityOfService() throws {
    let graph = Graph()
    let a = try graph.node("a")
    let b = try graph.node("b", needs: ["a"])
    let c = try graph.node("c", .afterFirstFrame(.background), needs: ["a"])
    let d = try graph.node("d", needs: ["a"], async: true)
    var schedule = Self.schedule(in: .launched)
    _ = try schedule.firstFrameDrawn(nodes: [a, b, c, d], now: 1).get()
    let idA = try #require(schedule.entryID(for: a))
    _ = schedule.start(idA, now: 2)
    let work = schedule.finish(idA, .built, carryingOn: .utility, now: 3)
    #expect(work.next?.node === b)
    #expect(work.next?.id == schedule.entryID(for: b))
    #expect(schedule.entry(for: b)?.status == .running)
    // Width two: b runs on, c fills the other slot, the async build does not count.
    #expect(Set(Self.names(work.submit)) == ["c", "d"])
    #expect(schedule.inFlight == 2)
  }

  @Test func widthBoundsSynchronousBuildsInFlight() throws {
    let graph = Graph()
    let nodes = try (0..<5).map { try graph.node("n\($0)") }
    let async = try graph.node("async", async: true)
    var schedule = Self.schedule(in: .launched, width: 2)
    let work = try schedule.firstFrameDrawn(nodes: nodes + [async], now: 1).get()
    #expect(Self.names(work.submit) == ["async", "n0", "n1"])
    #expect(schedule.inFlight == 2)
  }

  // MARK: - Cycles

  @Test func anEntryIsNeverGatedOnItself() throws {
    let graph = Graph()
    try graph.node("b", .onDemand, needs: ["a"])
    let a = try graph.node("a", needs: ["b"])
    var schedule = Self.schedule(in: .launched)
    let work = try schedule.firstFrameDrawn(nodes: [a], now: 1).get()
    #expect(Self.names(work.submit) == ["a"])
    #expect(schedule.entry(for: a)?.gates == 0)
  }

  @Test func entriesOnACycleAreUngatedFromEachOtherOnly() throws {
    let graph = Graph()
    try graph.node("a", needs: ["b"])
    let b = try graph.node("b", needs: ["c"])
    let c = try graph.node("c", needs: ["a"])
    let a = try #require(graph.container.lookup(ServiceKey<Box>(name: "a").erased))
    let after = try graph.node("after", needs: ["a"])
    var schedule = Self.schedule(in: .launched)
    let work = try schedule.firstFrameDrawn(nodes: [a, b, c, after], now: 1).get()
    #expect(Self.names(work.submit) == ["a", "b"])
    #expect(schedule.entry(for: after)?.gates == 1)
    // Their builds fail with the cycle: what needs them is skipped, and readiness comes.
    let idA = try #require(schedule.entryID(for: a))
    _ = schedule.start(idA, now: 2)
    _ = schedule.finish(idA, .failed, now: 3)
    #expect(schedule.entry(for: after)?.status == .skipped)
    for node in [b, c] {
      let id = try #require(schedule.entryID(for: node))
      #expect(schedule.entry(id).status == .submitted)
      _ = schedule.start(id, now: 4)
      _ = schedule.finish(id, .failed, now: 5)
    }
    #expect(schedule.phase == .fullyReady)
  }
}

/// The work's events by kind, as the tests read them.
extension LaunchWork {
  var timers: [Duration] {
    events.compactMap { if case .timer(let delay) = $0 { delay } else { nil } }
  }
  var ready: [LaunchSchedule.Waiter] {
    events.compactMap { if case .ready(let waiter) = $0 { waiter } else { nil } }
  }
  var shutDown: [LaunchSchedule.Waiter] {
    events.compactMap { if case .shutDown(let waiter) = $0 { waiter } else { nil } }
  }
  var cancelled: [ScheduledBuild] {
    events.compactMap { if case .cancelled(let build) = $0 { build } else { nil } }
  }
}
