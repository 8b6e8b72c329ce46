import Dispatch
import Synchronization
import Testing

@testable import Deferred

final class Theme: Sendable {}
final class Config: Sendable {}
final class Conversions: Sendable {}

@Suite struct LaunchTests {
  struct App {
    let scheduler = ManualScheduler()
    let runs = Runs()
    let container: Container

    init(maxConcurrentBuilds: Int? = nil) throws {
      container = Container(
        scheduler: scheduler, clock: scheduler.clock, maxConcurrentBuilds: maxConcurrentBuilds)
      let runs = runs
      try container.register(Theme.self, priority: .critical) {
        runs.tick("Theme")
        return Theme()
      }
      try container.register(Storage.self) {
        runs.tick("Storage")
        return Storage()
      }
      try container.register(Network.self, priority: .afterFirstFrame(.userInitiated)) {
        runs.tick("Network")
        return Network()
      }
      try container.register(SyncService.self, priority: .afterFirstFrame()) {
        (storage: Storage, network: Network) in
        runs.tick("SyncService")
        return SyncService(storage: storage, network: network)
      }
      try container.register(Config.self, priority: .idle(after: .seconds(10))) {
        runs.tick("Config")
        return Config()
      }
      try container.register(Conversions.self) {
        runs.tick("Conversions")
        return Conversions()
      }
    }
  }

  @Test func phasesBuildWhatTheyShould() throws {
    let app = try App()
    try app.container.launch()
    #expect(app.runs.total == 1)
    #expect(app.runs["Theme"] == 1)
    #expect(app.scheduler.queued.isEmpty)

    try app.container.firstFrameDrawn()
    // Network first: SyncService needs it, so it waits for it.
    #expect(app.scheduler.queued == ["build Network"])
    app.scheduler.runNext()
    #expect(app.scheduler.queued == ["build SyncService"])
    app.scheduler.runAll()
    #expect(app.runs["SyncService"] == 1)
    #expect(app.runs["Storage"] == 1)  // on demand, built for SyncService
    #expect(app.runs["Config"] == 0)
    #expect(!app.container.isFullyReady)

    app.scheduler.clock.advance(by: .seconds(9))
    #expect(app.scheduler.queued.isEmpty)
    app.scheduler.clock.advance(by: .seconds(1))
    #expect(app.scheduler.queued == ["idle after 10.0 seconds"])
    app.scheduler.runAll()
    #expect(app.runs["Config"] == 1)
    #expect(app.container.isFullyReady)
    #expect(app.runs["Conversions"] == 0)
    #expect(app.scheduler.queued.isEmpty)
  }

  @Test func appIsIdleReleasesIdleServicesEarly() throws {
    let app = try App()
    try app.container.launch()
    try app.container.firstFrameDrawn()
    app.scheduler.runAll()
    app.container.appIsIdle()
    #expect(app.scheduler.queued == ["build Config"])
    app.scheduler.runAll()
    #expect(app.container.isFullyReady)
    // The timer fires later and finds nothing to do.
    app.scheduler.clock.advance(by: .seconds(10))
    app.scheduler.runAll()
    #expect(app.runs["Config"] == 1)
  }

  @Test func widthBoundsBuildsInFlight() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock, maxConcurrentBuilds: 2)
    for index in 0..<5 {
      try container.register(box(index), priority: .afterFirstFrame()) { Box(index) }
    }
    try container.launch()
    try container.firstFrameDrawn()
    #expect(scheduler.queued == ["build Box[\"box0\"]", "build Box[\"box1\"]"])
    // A job that finishes a build carries on, on its own thread, with the next build of its
    // quality of service that this made ready, rather than queueing a job for it: box0's job
    // builds box2, box3 and box4 in turn while box1's job waits, never more than two in flight.
    scheduler.runNext()
    #expect(scheduler.queued == ["build Box[\"box1\"]"])
    #expect(
      container.launchReport().builds.map(\.service)
        == ["box0", "box2", "box3", "box4"].map { "Box[\"\($0)\"]" })
    #expect(scheduler.runAll() == 1)
    #expect(container.isFullyReady)
  }

  @Test func qualityOfServiceOrdersReadyBuilds() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock, maxConcurrentBuilds: 1)
    try container.register(Storage.self, priority: .afterFirstFrame(.background)) { Storage() }
    try container.register(Config.self, priority: .afterFirstFrame(.utility)) { Config() }
    try container.register(Network.self, priority: .afterFirstFrame(.userInitiated)) { Network() }
    try container.launch()
    try container.firstFrameDrawn()
    var order: [String] = []
    while let next = scheduler.queued.first {
      order.append(next)
      scheduler.runNext()
    }
    #expect(order == ["build Network", "build Config", "build Storage"])
  }

  @Test func criticalServicePromotesWhatItNeeds() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    let runs = Runs()
    try container.register(Storage.self, priority: .afterFirstFrame()) {
      runs.tick("Storage")
      return Storage()
    }
    try container.register(Theme.self, priority: .critical) { (_: Storage) in
      runs.tick("Theme")
      return Theme()
    }
    let problems = container.validate()
    #expect(problems.map(\.code) == [.criticalNeedsDeferred])
    #expect(problems.map(\.severity) == [.warning])
    #expect(problems.first?.service == "Storage")
    #expect(problems.first?.chain == ["Theme", "Storage"])
    #expect(
      problems.first?.message.hasPrefix(
        "Theme is critical but needs Storage, whose priority is afterFirstFrame(utility)")
        == true)
    try container.launch()
    #expect(runs["Storage"] == 1)
    try container.firstFrameDrawn()
    #expect(scheduler.queued.isEmpty)
    #expect(container.isFullyReady)
  }

  @Test(arguments: [true, false])
  func priorityDependsOnTheLaunchContext(restoring: Bool) throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    let runs = Runs()
    try container.register(
      Storage.self, priority: .when(.restoringState, .critical, otherwise: .afterFirstFrame())
    ) {
      runs.tick("Storage")
      return Storage()
    }
    try container.launch(restoring ? [.restoringState] : [])
    #expect(runs["Storage"] == (restoring ? 1 : 0))
    try container.firstFrameDrawn()
    #expect(scheduler.queued == (restoring ? [] : ["build Storage"]))
  }

  @Test func aPriorityIsAPlainValueThatComparesByWhatItSays() {
    // Nothing to retain or release: what keeps a registration's call small (compile time).
    #expect(_isPOD(Priority.self))
    let restoring = Priority.when(.restoringState, .critical, otherwise: .idle(after: .seconds(3)))
    #expect(restoring == .when("restoringState", .critical, otherwise: .idle(after: .seconds(3))))
    #expect(restoring != .when(.restoringState, .critical, otherwise: .idle(after: .seconds(4))))
    #expect(restoring != .when("other", .critical, otherwise: .idle(after: .seconds(3))))
    #expect(Set([restoring, restoring, .critical, .onDemand]).count == 3)
    #expect(restoring.isCritical)
    #expect(restoring.resolved(in: [.restoringState]) == .critical)
    #expect(restoring.resolved(in: []) == .idle(after: .seconds(3)))
    #expect(restoring.description == "when(restoringState, critical, otherwise: idle(3.0 seconds))")
    let nested = Priority.when("a", restoring, otherwise: .afterFirstFrame(.background))
    #expect(nested.resolved(in: ["a"]).resolved(in: []) == .idle(after: .seconds(3)))
    #expect(nested.resolved(in: []) == .afterFirstFrame(.background))
  }

  @Test func resolvingAQueuedServiceBuildsItOnceOnTheCaller() throws {
    let app = try App()
    try app.container.launch()
    try app.container.firstFrameDrawn()
    #expect(app.scheduler.queued == ["build Network"])
    let sync = try app.container.resolve(SyncService.self)
    #expect(app.runs["Network"] == 1)
    app.scheduler.runAll()
    #expect(app.runs["Network"] == 1)
    #expect(app.runs["SyncService"] == 1)
    #expect(try app.container.resolve(SyncService.self) === sync)
  }

  @Test func pauseHoldsDeferredBuildsUntilResume() throws {
    let app = try App()
    try app.container.launch()
    try app.container.firstFrameDrawn()
    app.container.pause()
    app.scheduler.runAll()
    #expect(app.runs["Network"] == 0)
    #expect(app.scheduler.queued.isEmpty)
    app.container.resume()
    #expect(app.scheduler.queued == ["build Network"])
    app.scheduler.runAll()
    #expect(app.runs["SyncService"] == 1)
  }

  @Test func shutDownCancelsWhatHasNotStartedAndFailsLaterResolves() async throws {
    let app = try App()
    try app.container.launch()
    try app.container.firstFrameDrawn()
    _ = try await app.container.awaitService(Theme.self)
    app.container.shutDown()
    app.scheduler.runAll()
    #expect(app.runs["Network"] == 0)
    let error = await #expect(throws: DeferredError.self) {
      try await app.container.awaitService(Theme.self)
    }
    #expect(error?.code == .shutDown)
    #expect(error?.description == "Cannot resolve Theme: the container was shut down.")
    await #expect(throws: DeferredError.self) { try await app.container.fullyReady() }
    #expect(throws: DeferredError.self) { try app.container.launch() }
  }

  @Test func shutDownWaitsForBuildsUnderWay() throws {
    let container = Container()
    let started = Signal()
    let release = Signal()
    let finished = Atomic<Bool>(false)
    try container.register(Storage.self, priority: .afterFirstFrame()) {
      started.fire()
      release.wait()
      finished.store(true, ordering: .releasing)
      return Storage()
    }
    try container.launch()
    try container.firstFrameDrawn()
    started.wait()
    DispatchQueue.global().async { release.fire() }
    container.shutDown()
    let done = finished.load(ordering: .acquiring)
    #expect(done)
  }

  @Test func launchStepsOutOfOrderAreClearErrors() throws {
    let app = try App()
    let early = #expect(throws: DeferredError.self) { try app.container.firstFrameDrawn() }
    #expect(early?.code == .launchOrder)
    #expect(early?.description.contains("call launch() before firstFrameDrawn()") == true)
    try app.container.launch()
    let twice = #expect(throws: DeferredError.self) { try app.container.launch() }
    #expect(twice?.code == .launchOrder)
    #expect(twice?.description.contains("launch() was called again") == true)
    let late = #expect(throws: DeferredError.self) {
      try app.container.register(Config.self, name: "late", priority: .critical) { Config() }
    }
    #expect(late?.code == .registrationTooLate)
    try app.container.firstFrameDrawn()
    try app.container.firstFrameDrawn()  // again: nothing happens
    #expect(app.scheduler.queued == ["build Network"])
  }

  @Test func deferredRegistrationAfterFirstFrameIsScheduled() throws {
    let app = try App()
    try app.container.launch()
    try app.container.firstFrameDrawn()
    app.scheduler.runAll()
    app.container.appIsIdle()
    app.scheduler.runAll()
    #expect(app.container.isFullyReady)
    let runs = app.runs  // not `app`: its container would hold a factory that holds it
    try app.container.register(Config.self, name: "late", priority: .afterFirstFrame()) {
      runs.tick("late")
      return Config()
    }
    // Ready once a launch: the late service is built, and the app stays ready meanwhile.
    #expect(app.container.isFullyReady)
    #expect(app.scheduler.queued == ["build Config[\"late\"]"])
    app.scheduler.runAll()
    #expect(app.runs["late"] == 1)
    #expect(app.container.isFullyReady)
  }

  @Test func failedCriticalServiceFailsTheLaunchWhichMayBeRetried() throws {
    let container = Container(scheduler: ManualScheduler())
    let attempts = Atomic<Int>(0)
    try container.register(Theme.self, priority: .critical) {
      if attempts.add(1, ordering: .relaxed).newValue == 1 { throw Failure(message: "no fonts") }
      return Theme()
    }
    let error = #expect(throws: DeferredError.self) { try container.launch() }
    #expect(error?.code == .factoryFailed)
    #expect(error?.service == "Theme")
    try container.launch()
    try container.firstFrameDrawn()
  }

  @Test func failedDeferredBuildSkipsItsDependentsAndIsRetriedOnDemand() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    let attempts = Atomic<Int>(0)
    let runs = Runs()
    try container.register(Network.self, priority: .afterFirstFrame()) {
      if attempts.add(1, ordering: .relaxed).newValue == 1 { throw Failure(message: "offline") }
      return Network()
    }
    try container.register(Storage.self) { Storage() }
    try container.register(SyncService.self, priority: .afterFirstFrame()) {
      (storage: Storage, network: Network) in
      runs.tick("SyncService")
      return SyncService(storage: storage, network: network)
    }
    try container.launch()
    try container.firstFrameDrawn()
    scheduler.runAll()
    #expect(attempts.load(ordering: .relaxed) == 1)
    #expect(runs["SyncService"] == 0)
    #expect(container.isFullyReady)
    #expect(try container.resolve(SyncService.self).network.online)
    #expect(attempts.load(ordering: .relaxed) == 2)
  }

  @Test func fullyReadyObservers() async throws {
    let app = try App()
    let notified = Signal()
    app.container.onFullyReady(on: .global()) { notified.fire() }
    try app.container.launch()
    try app.container.firstFrameDrawn()
    app.scheduler.runAll()
    app.container.appIsIdle()
    app.scheduler.runAll()
    notified.wait()
    try await app.container.fullyReady()
    let again = Signal()
    app.container.onFullyReady(on: .global()) { again.fire() }
    again.wait()
  }

  /// The real scheduler, factories doing a random amount of work: every service starts only
  /// after the services it declares are built, and each is built once.
  @Test func realSchedulerRespectsDependencyOrder() async throws {
    var generator = SplitMix(seed: 42)
    for _ in 0..<25 {
      let container = Container()
      let clock = Atomic<Int>(0)
      let started = Locked<[Int: Int]>([:])
      let finished = Locked<[Int: Int]>([:])
      let count = 40
      var dependencies: [[Int]] = []
      for index in 0..<count {
        let needs = index == 0 ? [] : (0..<2).map { _ in Int(generator.next() % UInt64(index)) }
        dependencies.append(needs)
        let work = Int(generator.next() % 20_000)
        let priority: Priority = index % 3 == 0 ? .idle(after: .seconds(3600)) : .afterFirstFrame()
        let record: @Sendable (Int) -> Box = { index in
          started.withLock { $0[index] = clock.add(1, ordering: .relaxed).newValue }
          var sink = 0
          for step in 0..<work { sink &+= step &* index }
          precondition(sink != -1)
          finished.withLock { $0[index] = clock.add(1, ordering: .relaxed).newValue }
          return Box(index)
        }
        if needs.isEmpty {
          try container.register(box(index), priority: priority) { record(index) }
        } else {
          try container.register(
            box(index), priority: priority, dependencies: box(needs[0]), box(needs[1])
          ) { _, _ in record(index) }
        }
      }
      try container.launch()
      try container.firstFrameDrawn()
      container.appIsIdle()
      try await container.fullyReady()
      let starts = started.withLock { $0 }
      let ends = finished.withLock { $0 }
      #expect(starts.count == count)
      for index in 0..<count {
        for needed in dependencies[index] {
          #expect(ends[needed]! < starts[index]!)
        }
      }
    }
  }
}
