import Testing

@testable import Deferred

private final class Pantry: Sendable {}

@Suite struct LaunchEventTests {
  /// The events an observer is told, in order.
  final class Events: Sendable {
    private let list = Locked<[LaunchEvent]>([])
    func append(_ event: LaunchEvent) { list.withLock { $0.append(event) } }
    var all: [LaunchEvent] { list.withLock { $0 } }
  }

  @Test func theObserverFollowsTheLaunchStepByStep() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Theme.self, priority: .critical) { Theme() }
    try container.register(Pantry.self, priority: .afterFirstFrame()) { Pantry() }
    let events = Events()
    container.observeLaunch { events.append($0) }

    try container.launch()
    #expect(
      events.all == [
        .milestone(.launchBegan), .buildBegan(service: "Theme", priority: .critical),
        .buildEnded(service: "Theme", priority: .critical, outcome: .built),
        .milestone(.criticalReady),
      ])
    try container.firstFrameDrawn()
    #expect(events.all.last == .milestone(.firstFrame))
    scheduler.runAll()
    #expect(
      events.all.suffix(3) == [
        .buildBegan(service: "Pantry", priority: .afterFirstFrame()),
        .buildEnded(service: "Pantry", priority: .afterFirstFrame(), outcome: .built),
        .milestone(.fullyReady),
      ])
  }

  @Test func aFailedBuildAndAServiceWhoseDependencyFailedEndAsFailed() throws {
    struct Broken: Error {}
    let container = Container(scheduler: ManualScheduler())
    try container.register(Storage.self) { () throws -> Storage in throw Broken() }
    try container.register(Pantry.self) { (_: Storage) in Pantry() }
    let events = Events()
    container.observeLaunch { events.append($0) }
    #expect(throws: DeferredError.self) { try container.resolve(Pantry.self) }
    let ended = events.all.compactMap { event -> String? in
      guard case .buildEnded(let service, _, let outcome) = event else { return nil }
      return "\(service) \(outcome)"
    }
    #expect(ended.sorted() == ["Pantry failed", "Storage failed"])
    // Every build begun has ended.
    #expect(events.all.count { if case .buildBegan = $0 { true } else { false } } == 2)
  }

  @Test func aCancelledObserverHearsNothingAndRecordingOffTellsMilestonesOnly() throws {
    let container = Container(scheduler: ManualScheduler(), recording: .off)
    try container.register(Theme.self, priority: .critical) { Theme() }
    let events = Events()
    let observation = container.observeLaunch { events.append($0) }
    try container.launch()
    #expect(events.all == [.milestone(.launchBegan), .milestone(.criticalReady)])
    observation.cancel()
    observation.cancel()  // twice changes nothing
    // An observer added after it is told.
    let later = Events()
    container.observeLaunch { later.append($0) }
    try container.firstFrameDrawn()
    #expect(events.all.count == 2)
    #expect(later.all == [.milestone(.firstFrame), .milestone(.fullyReady)])
  }

  @Test func everyObserverIsToldEveryStepInTheOrderTheyWereAdded() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Theme.self, priority: .critical) { Theme() }
    let first = Events()
    let second = Events()
    let order = Locked<[String]>([])
    container.observeLaunch { event in
      first.append(event)
      order.withLock { $0.append("first") }
    }
    container.observeLaunch { event in
      second.append(event)
      order.withLock { $0.append("second") }
    }
    try container.launch()
    let steps: [LaunchEvent] = [
      .milestone(.launchBegan), .buildBegan(service: "Theme", priority: .critical),
      .buildEnded(service: "Theme", priority: .critical, outcome: .built),
      .milestone(.criticalReady),
    ]
    #expect(first.all == steps)
    #expect(second.all == steps)
    #expect(
      order.withLock { $0 } == Array(repeating: ["first", "second"], count: 4).flatMap { $0 })
  }

  @Test func cancellingOneObserverStopsOnlyThatOne() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Theme.self, priority: .critical) { Theme() }
    try container.register(Pantry.self, priority: .afterFirstFrame()) { Pantry() }
    let kept = Events()
    let removed = Events()
    container.observeLaunch { kept.append($0) }
    let observation = container.observeLaunch { removed.append($0) }
    try container.launch()
    observation.cancel()
    try container.firstFrameDrawn()
    scheduler.runAll()
    #expect(removed.all.last == .milestone(.criticalReady))
    #expect(removed.all.count == 4)
    #expect(
      kept.all.suffix(4) == [
        .milestone(.firstFrame), .buildBegan(service: "Pantry", priority: .afterFirstFrame()),
        .buildEnded(service: "Pantry", priority: .afterFirstFrame(), outcome: .built),
        .milestone(.fullyReady),
      ])
  }

  @Test func anObserverMayAddAndCancelObserversWhileItIsTold() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(Theme.self, priority: .critical) { Theme() }
    let added = Events()
    let removed = Events()
    let observation = Locked<LaunchObservation?>(nil)
    // The observers are called under no lock of the container: calling it back does not
    // deadlock.
    container.observeLaunch { [weak container] event in
      guard event == .milestone(.launchBegan), let container else { return }
      observation.withLock { $0?.cancel() }
      container.observeLaunch { added.append($0) }
    }
    observation.withLock { $0 = container.observeLaunch { removed.append($0) } }
    try container.launch()
    // The step under way when it was cancelled still tells it; later steps do not.
    #expect(removed.all == [.milestone(.launchBegan)])
    #expect(added.all.first == .buildBegan(service: "Theme", priority: .critical))
    #expect(added.all.last == .milestone(.criticalReady))
    // The first observer holds the box that holds the cancelled observation: empty it.
    observation.withLock { $0 = nil }
  }

  @Test func aHazardAddedFromOutsideIsInEveryLaterReport() throws {
    let container = Container(scheduler: ManualScheduler())
    let hazard = Hazard(
      kind: .fieldMeasurement, service: "MetricKit", detail: "The system refused the task.")
    container.addHazard(hazard)
    #expect(container.launchReport().hazards == [hazard])
    let json = container.launchReport().json()
    #expect(try LaunchReport(json: json).hazards == [hazard])
  }
}
