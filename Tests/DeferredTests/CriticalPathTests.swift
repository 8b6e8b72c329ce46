import DeferredHistory
import Testing

@testable import Deferred

/// Longest path first: with a history, among ready deferred builds the one heading the
/// longest remaining path of remembered costs runs first; without one, registration order.
/// Launches run on a ``ManualScheduler``, one job at a time on the test's thread, so the order
/// the factories run in is the order the schedule chose.
@Suite struct CriticalPathTests {
  /// A service of a test graph: its name, what it needs (at most two), its priority.
  struct Service {
    let name: String
    var needs: [String] = []
    var priority: Priority = .afterFirstFrame()

    init(_ name: String, needs: [String] = [], _ priority: Priority = .afterFirstFrame()) {
      self.name = name
      self.needs = needs
      self.priority = priority
    }
  }

  /// The order factories ran in.
  final class Order: Sendable {
    private let names = Locked<[String]>([])
    func append(_ name: String) { names.withLock { $0.append(name) } }
    var all: [String] { names.withLock { $0 } }
  }

  /// A history of one launch in which each named service's build took its cost, in
  /// milliseconds, of its own time.
  static func history(_ costs: [String: Int]) -> LaunchHistory {
    let history = LaunchHistory()
    history.record(
      LaunchReport(
        processStart: .clock, processStartPrecision: .zero,
        milestones: [Milestone(.processStart, at: .zero)],
        builds: costs.sorted { $0.key < $1.key }.map { name, milliseconds in
          BuildRecord(
            service: ServiceKey<Box>(name: name).description, priority: .afterFirstFrame(),
            trigger: .scheduled, thread: "worker", isMainThread: false, start: .zero,
            duration: .milliseconds(milliseconds), selfDuration: .milliseconds(milliseconds),
            outcome: .built, attempt: 1)
        }, transients: [], hazards: [], dependencies: [:]))
    return history
  }

  /// A container on a manual scheduler with `services` registered in the order given, each
  /// factory appending its name to `order`.
  static func container(
    _ services: [Service], width: Int, history: LaunchHistory?, order: Order
  ) throws -> (Container, ManualScheduler) {
    let scheduler = ManualScheduler()
    let container = Container(
      scheduler: scheduler, clock: scheduler.clock, maxConcurrentBuilds: width, history: history)
    for service in services {
      let key = ServiceKey<Box>(name: service.name)
      let needs = service.needs.map { ServiceKey<Box>(name: $0) }
      let name = service.name
      switch needs.count {
      case 0:
        try container.register(key, priority: service.priority) { () in
          order.append(name)
          return Box(0)
        }
      case 1:
        try container.register(key, priority: service.priority, dependencies: needs[0]) { _ in
          order.append(name)
          return Box(0)
        }
      default:
        try container.register(
          key, priority: service.priority, dependencies: needs[0], needs[1]
        ) { _, _ in
          order.append(name)
          return Box(0)
        }
      }
    }
    return (container, scheduler)
  }

  /// Launches `services` and runs every job (and the idle release): the order they were built.
  static func buildOrder(
    _ services: [Service], width: Int = 1, history: LaunchHistory?
  ) throws -> [String] {
    let order = Order()
    let (container, scheduler) = try container(
      services, width: width, history: history, order: order)
    try container.launch()
    try container.firstFrameDrawn()
    scheduler.runAll()
    container.appIsIdle()
    scheduler.runAll()
    #expect(container.isFullyReady)
    return order.all
  }

  /// The labels of the jobs the first frame hands to the scheduler.
  static func firstJobs(
    _ services: [Service], width: Int, history: LaunchHistory?
  ) throws -> [String] {
    let (container, scheduler) = try container(
      services, width: width, history: history, order: Order())
    try container.launch()
    try container.firstFrameDrawn()
    return scheduler.queued
  }

  static func job(_ name: String) -> String { "build \(ServiceKey<Box>(name: name).description)" }

  // MARK: - A chain

  /// `solo` (30 ms) is registered first; the chain `c1 → c2 → c3` is 35 ms long in all.
  static let chain = [
    Service("solo"), Service("c1"), Service("c2", needs: ["c1"]), Service("c3", needs: ["c2"]),
  ]
  static let chainCosts = ["solo": 30, "c1": 10, "c2": 10, "c3": 15]

  @Test func aChainsHeadGoesBeforeALongerSingleBuild() throws {
    // c1 heads 35 ms, solo 30: c1 first; then solo (30) before c2 (25).
    #expect(
      try Self.buildOrder(Self.chain, history: Self.history(Self.chainCosts)) == [
        "c1", "solo", "c2", "c3",
      ])
    // Without a history, registration order.
    #expect(try Self.buildOrder(Self.chain, history: nil) == ["solo", "c1", "c2", "c3"])
  }

  @Test func twoAtOnceStartWithTheTwoLongestPaths() throws {
    // Three roots: a and b of 5 ms, head of 1 ms before a tail of 40.
    let services = [
      Service("a"), Service("b"), Service("head"), Service("tail", needs: ["head"]),
    ]
    let history = Self.history(["a": 5, "b": 5, "head": 1, "tail": 40])
    #expect(
      try Self.firstJobs(services, width: 2, history: history) == [
        Self.job("head"), Self.job("a"),
      ])
    #expect(
      try Self.firstJobs(services, width: 2, history: nil) == [Self.job("a"), Self.job("b")])
    // Each job carries on with the best build ready when it ends (the manual scheduler runs
    // the first job to its end): head's with tail (40) rather than b (5); without a history,
    // a's with head, then tail, both registered before b.
    #expect(
      try Self.buildOrder(services, width: 2, history: history) == ["head", "tail", "b", "a"])
    #expect(try Self.buildOrder(services, width: 2, history: nil) == ["a", "head", "tail", "b"])
  }

  // MARK: - A diamond

  @Test func aDiamondsPathIsItsLongerSideNotTheSumOfBoth() throws {
    // top (1) → left (2), right (20) → bottom (1): top's path is 1 + 20 + 1 = 22, not 25.
    // other (23), registered last, goes first; then right's side before left's.
    let services = [
      Service("top"), Service("left", needs: ["top"]), Service("right", needs: ["top"]),
      Service("bottom", needs: ["left", "right"]), Service("other"),
    ]
    let costs = ["top": 1, "left": 2, "right": 20, "bottom": 1, "other": 23]
    let history = Self.history(costs)
    #expect(
      try Self.buildOrder(services, history: history) == [
        "other", "top", "right", "left", "bottom",
      ])
    #expect(
      try Self.buildOrder(services, history: nil) == ["top", "left", "right", "bottom", "other"])
    // Two at once: top and other first, then right ahead of left. (A fresh history: the
    // launch above, fully ready, recorded itself into the first one, at manual-clock costs.)
    #expect(
      try Self.firstJobs(services, width: 2, history: Self.history(costs)) == [
        Self.job("other"), Self.job("top"),
      ])
  }

  // MARK: - Priorities and idleness

  @Test func qualityOfServiceAndStageStayTheMajorKeys() throws {
    // The longest path by far is the utility chain's, yet the user-initiated build goes
    // first; the idle one, the longest of all, waits for idleness.
    let services = [
      Service("util"), Service("long", needs: ["util"]),
      Service("quick", .afterFirstFrame(.userInitiated)),
      Service("back", .afterFirstFrame(.background)),
      Service("idle", .idle(after: .seconds(60))),
    ]
    let history = Self.history(["util": 1, "long": 100, "quick": 1, "back": 50, "idle": 500])
    let order = Order()
    let (container, scheduler) = try Self.container(
      services, width: 1, history: history, order: order)
    try container.launch()
    try container.firstFrameDrawn()
    scheduler.runAll()
    #expect(order.all == ["quick", "util", "long", "back"])
    #expect(!container.isFullyReady)
    container.appIsIdle()
    scheduler.runAll()
    #expect(order.all == ["quick", "util", "long", "back", "idle"])
    #expect(container.isFullyReady)
  }

  // MARK: - Unknown costs

  @Test func anUnknownServiceCostsTheMedianOfTheKnownOnes() throws {
    // Known: 15, 30 and 40 ms (median 30); u and v are new. v (30) heads w (40): 70, first of
    // all; then w (40); u (30) ties m (30) and goes first, registered first; k (15) last.
    // Had unknown services cost zero, u would come last; had they cost the most known (40), u
    // would go before w.
    let services = [
      Service("k"), Service("u"), Service("m"), Service("v"), Service("w", needs: ["v"]),
    ]
    let history = Self.history(["k": 15, "m": 30, "w": 40])
    #expect(try Self.buildOrder(services, history: history) == ["v", "w", "u", "m", "k"])
  }

  @Test func withNothingKnownTheOrderIsRegistrationOrder() throws {
    let expected = ["solo", "c1", "c2", "c3"]
    // A history that knows none of these services, and one that remembers no launch.
    #expect(try Self.buildOrder(Self.chain, history: Self.history(["elsewhere": 9])) == expected)
    #expect(try Self.buildOrder(Self.chain, history: LaunchHistory()) == expected)
    #expect(try Self.buildOrder(Self.chain, history: nil) == expected)
  }

  @Test func aLateRegistrationIsRankedByItsOwnCost() throws {
    // After the first frame, while first (100 ms) holds the one slot and a (5) and b (10)
    // wait: late (2) queues behind them, by its cost, not first by its order.
    let history = Self.history(["first": 100, "a": 5, "b": 10, "late": 2])
    let order = Order()
    let (container, scheduler) = try Self.container(
      [Service("first"), Service("a"), Service("b")], width: 1, history: history, order: order)
    try container.launch()
    try container.firstFrameDrawn()
    #expect(scheduler.queued == [Self.job("first")])
    try container.register(ServiceKey<Box>(name: "late"), priority: .afterFirstFrame()) { () in
      order.append("late")
      return Box(0)
    }
    scheduler.runAll()
    #expect(order.all == ["first", "b", "a", "late"])
  }

  // MARK: - The schedule itself

  @Test func pathsAreMadeOnceAtTheFirstFrameFromTheGates() throws {
    let graph = LaunchScheduleTests.Graph()
    let solo = try graph.node("solo")
    let c1 = try graph.node("c1")
    let c2 = try graph.node("c2", needs: ["c1"])
    let c3 = try graph.node("c3", needs: ["c2"])
    var schedule = LaunchSchedule(width: 1, pastLaunches: Self.history(Self.chainCosts))
    _ = schedule.beginLaunch(flags: [], now: 0)
    _ = schedule.endLaunch(succeeded: true, now: 0)
    let work = try schedule.firstFrameDrawn(nodes: [solo, c1, c2, c3], now: 0).get()
    #expect(LaunchScheduleTests.names(work.submit) == ["c1"])
    // The ranks' minor keys fall with the paths: c1 (35), solo (30), c2 (25), c3 (15).
    let minors = try [c1, solo, c2, c3].map { try #require(schedule.entry(for: $0)).minorRank }
    #expect(minors == minors.sorted())
    #expect(Set(minors).count == 4)
  }
}
