import DeferredReports
import Testing

@testable import Deferred

/// The least time the work after the first frame could take: `max(critical path, work /
/// cores)`, from a launch stepped through with the manual scheduler, whose factories advance
/// its clock by their cost.
@Suite struct BackgroundBoundTests {
  static func key(_ name: String) -> ServiceKey<Box> { ServiceKey<Box>(name: name) }
  static func name(_ name: String) -> String { key(name).description }

  /// `root` (critical, 5 ms) before the first frame; after it `a` (10 ms), `b` needing `a`
  /// (20 ms) and `c` (15 ms), two at a time, run one job at a time on the test's thread.
  @Test func aLaunchOnTheManualClockHasExactFigures() throws {
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let container = Container(scheduler: scheduler, clock: clock, maxConcurrentBuilds: 2)
    try container.register(Self.key("root"), priority: .critical) { () in
      clock.advance(by: .milliseconds(5))
      return Box(0)
    }
    try container.register(Self.key("a"), priority: .afterFirstFrame()) { () in
      clock.advance(by: .milliseconds(10))
      return Box(1)
    }
    try container.register(
      Self.key("b"), priority: .afterFirstFrame(), dependencies: Self.key("a")
    ) { a in
      clock.advance(by: .milliseconds(20))
      return Box(2, [a])
    }
    try container.register(Self.key("c"), priority: .afterFirstFrame()) { () in
      clock.advance(by: .milliseconds(15))
      return Box(3)
    }
    clock.advance(by: .milliseconds(1))
    try container.launch()
    try container.firstFrameDrawn()
    // Before the first frame there is nothing after it to bound.
    let early = try #require(container.launchReport().idealBackgroundBound(cores: 2))
    #expect(early.order.isEmpty && early.work == .zero && early.criticalPath == .zero)
    #expect(early.ratio == nil)
    scheduler.runAll()
    #expect(container.isFullyReady)

    let bound = try #require(container.launchReport().idealBackgroundBound(cores: 2))
    // The path a → b is 30 ms; 45 ms of work over two cores is 22.5: the path bounds it.
    #expect(bound.criticalPath == .milliseconds(30))
    #expect(bound.chain == [Self.name("a"), Self.name("b")])
    #expect(bound.work == .milliseconds(45))
    #expect(bound.cores == 2)
    #expect(bound.sharedWork == .microseconds(22_500))
    #expect(bound.bound == .milliseconds(30))
    // One job at a time ran all three one after another: 45 ms, 1.5 times the bound.
    #expect(bound.took == .milliseconds(45))
    #expect(bound.ratio == 1.5)
    // a's job carried on with b, which a made ready; then c. The critical root is not in it.
    #expect(bound.order == [Self.name("a"), Self.name("b"), Self.name("c")])

    // On one core the work bounds it: 45 ms, and the launch was ideal.
    let one = try #require(container.launchReport().idealBackgroundBound(cores: 1))
    #expect(one.bound == .milliseconds(45))
    #expect(one.ratio == 1)
    // No fewer than one core.
    #expect(container.launchReport().idealBackgroundBound(cores: 0)?.cores == 1)
  }

  /// A build record of `service` on `thread`, from `start` for `own` milliseconds.
  static func build(_ service: String, thread: String = "worker", start: Int, own: Int)
    -> BuildRecord
  {
    BuildRecord(
      service: service, priority: .afterFirstFrame(), trigger: .scheduled, thread: thread,
      isMainThread: thread == "main", start: .milliseconds(start),
      duration: .milliseconds(own), selfDuration: .milliseconds(own), outcome: .built,
      attempt: 1)
  }

  @Test func asyncAndMainThreadBuildsAreOnThePathButNotTheCoresWork() throws {
    let report = LaunchReport(
      processStart: .clock, processStartPrecision: .zero,
      milestones: [
        Milestone(.processStart, at: .zero), Milestone(.firstFrame, at: .milliseconds(10)),
        Milestone(.fullyReady, at: .milliseconds(130)),
      ],
      builds: [
        Self.build("Before", thread: "main", start: 0, own: 10),
        Self.build("Worker", start: 10, own: 30),
        Self.build("Sync", thread: "task", start: 10, own: 80),
        Self.build("Model", thread: "main", start: 40, own: 20),
        // A second build of a service (a retry) adds to its cost.
        Self.build("Worker", start: 60, own: 10),
      ],
      dependencies: ["Model": ["Worker"], "Sync": ["Before"]])
    let bound = try #require(report.idealBackgroundBound(cores: 4))
    // The path: Worker (40 in two builds) → Model (20) = 60 < Sync's 80 alone.
    #expect(bound.criticalPath == .milliseconds(80))
    #expect(bound.chain == ["Sync"])
    // Only Worker held a worker thread: 40 ms.
    #expect(bound.work == .milliseconds(40))
    #expect(bound.sharedWork == .milliseconds(10))
    #expect(bound.bound == .milliseconds(80))
    #expect(bound.took == .milliseconds(120))
    #expect(bound.ratio == 1.5)
    #expect(bound.order == ["Worker", "Sync", "Model"])

    // No first frame, no bound.
    var unframed = report
    unframed.milestones.removeAll { $0.kind == .firstFrame }
    #expect(unframed.idealBackgroundBound(cores: 2) == nil)
    // Not fully ready: the bound, but nothing to compare with it.
    var unready = report
    unready.milestones.removeAll { $0.kind == .fullyReady }
    #expect(unready.idealBackgroundBound(cores: 2)?.took == nil)
    #expect(unready.idealBackgroundBound(cores: 2)?.ratio == nil)
  }
}
