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

  @Test func anObserverRemovedHearsNothingAndRecordingOffTellsMilestonesOnly() throws {
    let container = Container(scheduler: ManualScheduler(), recording: .off)
    try container.register(Theme.self, priority: .critical) { Theme() }
    let events = Events()
    container.observeLaunch { events.append($0) }
    try container.launch()
    #expect(events.all == [.milestone(.launchBegan), .milestone(.criticalReady)])
    container.observeLaunch(nil)
    try container.firstFrameDrawn()
    #expect(events.all.count == 2)
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
