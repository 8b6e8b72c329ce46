import Deferred
import DeferredMetricKit
import DeferredReports
import Testing

final class Storage: Sendable {}
final class Theme: Sendable {}
final class Fonts: Sendable {}
final class Catalog: Sendable {}
final class Sync: Sendable {}

@Suite struct FieldMeasurementTests {
  struct App {
    let scheduler = ManualScheduler()
    let container: Container

    init(maxConcurrentBuilds: Int = 1, catalogFails: Bool = false) throws {
      container = Container(
        scheduler: scheduler, clock: scheduler.clock, maxConcurrentBuilds: maxConcurrentBuilds)
      try container.register(Storage.self, priority: .critical) { Storage() }
      try container.register(Theme.self, priority: .critical) { (_: Storage) in Theme() }
      try container.register(Catalog.self, priority: .afterFirstFrame(.userInitiated)) {
        () throws -> Catalog in
        struct Broken: Error {}
        if catalogFails { throw Broken() }
        return Catalog()
      }
      try container.register(Sync.self, priority: .afterFirstFrame(.utility)) { Sync() }
    }
  }

  @MainActor @Test func theTaskStartsAtLaunchAndFinishesOnceWhenFullyReadyOnTheMainThread()
    throws
  {
    let app = try App()
    let system = RecordingFieldSystem()
    FieldMeasurement(system: system).attach(to: app.container)
    #expect(system.all.isEmpty)

    try app.container.launch()
    #expect(system.measurement == ["extend Deferred.launch"])
    try app.container.firstFrameDrawn()
    #expect(system.measurement == ["extend Deferred.launch"])
    app.scheduler.runNext()  // Catalog
    #expect(system.measurement == ["extend Deferred.launch"])
    app.scheduler.runAll()  // Sync: fully ready
    #expect(app.container.isFullyReady)
    #expect(system.measurement == ["extend Deferred.launch", "finish Deferred.launch"])

    // Nothing later finishes it again.
    try app.container.firstFrameDrawn()
    app.appIsIdleAndSettled()
    #expect(system.measurement == ["extend Deferred.launch", "finish Deferred.launch"])
    #expect(!app.container.launchReport().hazards.contains { $0.kind == .fieldMeasurement })
  }

  @Test func aLaunchOffTheMainThreadStartsTheTaskOnTheMainQueue() async throws {
    let app = try App()
    let system = RecordingFieldSystem()
    FieldMeasurement(system: system).attach(to: app.container)
    try await Task.detached { try app.container.launch() }.value
    #expect(system.measurement.isEmpty)
    #expect(app.scheduler.queuedOnMain == ["field measurement"])
    await app.scheduler.runMainNext()
    #expect(system.measurement == ["extend Deferred.launch"])

    // Full readiness comes on a build's thread: the finish goes to the main queue too.
    try app.container.firstFrameDrawn()
    app.scheduler.runAll()
    #expect(system.measurement == ["extend Deferred.launch"])
    await app.scheduler.runMainNext()
    #expect(system.measurement == ["extend Deferred.launch", "finish Deferred.launch"])
  }

  @MainActor @Test func namedServicesMakeTheAppUsableBeforeItIsFullyReady() throws {
    let app = try App()
    let system = RecordingFieldSystem()
    FieldMeasurement(system: system, usable: .built(["Catalog"])).attach(to: app.container)
    try app.container.launch()
    try app.container.firstFrameDrawn()
    #expect(app.scheduler.queued == ["build Catalog"])
    app.scheduler.runNext()
    #expect(system.measurement == ["extend Deferred.launch", "finish Deferred.launch"])
    #expect(!app.container.isFullyReady)
    app.scheduler.runAll()
    #expect(app.container.isFullyReady)
    #expect(system.measurement == ["extend Deferred.launch", "finish Deferred.launch"])
  }

  @MainActor @Test func aNamedServiceThatFailsEndsTheMeasurementWithAHazard() throws {
    let app = try App(catalogFails: true)
    let system = RecordingFieldSystem()
    FieldMeasurement(system: system, usable: .built(["Catalog", "Sync"])).attach(
      to: app.container)
    try app.container.launch()
    try app.container.firstFrameDrawn()
    app.scheduler.runNext()
    #expect(system.measurement == ["extend Deferred.launch", "finish Deferred.launch"])
    let hazards = app.container.launchReport().hazards.filter { $0.kind == .fieldMeasurement }
    #expect(hazards.map(\.service) == ["Catalog"])
  }

  @MainActor @Test func aRefusedStartIsAHazardAndNothingIsFinished() throws {
    let app = try App()
    let system = RecordingFieldSystem(refusesExtend: true)
    FieldMeasurement(system: system).attach(to: app.container)
    try app.container.launch()
    try app.container.firstFrameDrawn()
    app.scheduler.runAll()
    #expect(app.container.isFullyReady)
    #expect(system.measurement == ["extend Deferred.launch"])
    let hazard = try #require(
      app.container.launchReport().hazards.first { $0.kind == .fieldMeasurement })
    #expect(hazard.service == "MetricKit")
    #expect(hazard.detail.contains("refused to extend its launch measurement"))
    #expect(hazard.detail.contains("extendLaunchMeasurement refused"))
    #expect(app.container.launchReport().text().contains("refused to extend"))
  }

  @MainActor @Test func aRefusedFinishIsAHazard() throws {
    let app = try App()
    let system = RecordingFieldSystem(refusesFinish: true)
    FieldMeasurement(system: system).attach(to: app.container)
    try app.container.launch()
    try app.container.firstFrameDrawn()
    app.scheduler.runAll()
    #expect(system.measurement == ["extend Deferred.launch", "finish Deferred.launch"])
    let details = app.container.launchReport().hazards.filter { $0.kind == .fieldMeasurement }
      .map(\.detail)
    #expect(details.count == 1)
    #expect(details.first?.contains("refused to finish") == true)
  }

  @MainActor @Test func phasesAndCriticalBuildsAreSignpostsOneCategoryAService() throws {
    let app = try App()
    let system = RecordingFieldSystem()
    let field = FieldMeasurement(system: system)
    field.attach(to: app.container)
    try app.container.launch()
    try app.container.firstFrameDrawn()
    app.scheduler.runAll()
    // Storage is built inside Theme's build (Theme's dependencies come first).
    #expect(
      system.signposts == [
        "begin Deferred launchToFirstFrame",
        "begin Deferred/Storage build", "end Deferred/Storage build",
        "begin Deferred/Theme build", "end Deferred/Theme build",
        "end Deferred launchToFirstFrame", "begin Deferred firstFrameToFullyReady",
        "end Deferred firstFrameToFullyReady",
      ])
    #expect(field.emittedServices == ["Storage", "Theme"])
  }

  @MainActor @Test func theServiceLimitKeepsTheFirstServicesAndNamesTheOthers() throws {
    let app = try App()
    let system = RecordingFieldSystem()
    let field = FieldMeasurement(
      system: system, services: .named(["Sync", "Catalog", "Theme"]), serviceLimit: 2)
    field.attach(to: app.container)
    try app.container.launch()
    try app.container.firstFrameDrawn()
    app.scheduler.runAll()
    #expect(field.emittedServices == ["Catalog", "Sync"])
    #expect(
      system.signposts.filter { $0.hasSuffix(" build") } == [
        "begin Deferred/Catalog build", "end Deferred/Catalog build",
        "begin Deferred/Sync build", "end Deferred/Sync build",
      ])
    // Critical by default, capped by the same limit: the first built are kept.
    let other = try App()
    let capped = FieldMeasurement(system: RecordingFieldSystem(), serviceLimit: 1)
    capped.attach(to: other.container)
    try other.container.launch()
    #expect(capped.emittedServices == ["Storage"])
    #expect(capped.skippedServices == ["Theme"])
  }

  @MainActor @Test func theAppsObserversAndTheFieldMeasurementFollowTheSameLaunch() throws {
    let app = try App()
    let before = Locked<[LaunchEvent]>([])
    let after = Locked<[LaunchEvent]>([])
    app.container.observeLaunch { event in before.withLock { $0.append(event) } }
    let system = RecordingFieldSystem()
    let field = try #require(FieldMeasurement(system: system).attach(to: app.container))
    app.container.observeLaunch { event in after.withLock { $0.append(event) } }
    try app.container.launch()
    try app.container.firstFrameDrawn()
    app.scheduler.runNext()  // Catalog
    // Detached halfway, the measurement stops; the app's observers go on.
    field.cancel()
    app.scheduler.runAll()  // Sync: fully ready
    #expect(app.container.isFullyReady)
    #expect(system.measurement == ["extend Deferred.launch"])
    #expect(system.signposts.contains("end Deferred/Theme build"))
    #expect(!system.signposts.contains("end Deferred firstFrameToFullyReady"))
    for events in [before, after] {
      let told = events.withLock { $0 }
      #expect(told.first == .milestone(.launchBegan))
      #expect(told.last == .milestone(.fullyReady))
      #expect(
        told.contains(
          .buildEnded(service: "Sync", priority: .afterFirstFrame(.utility), outcome: .built)))
    }
  }

  @Test func withoutASystemNothingIsObserved() throws {
    let app = try App()
    #expect(FieldMeasurement(system: nil).attach(to: app.container) == nil)
    try app.container.launch()
    #expect(app.scheduler.queuedOnMain.isEmpty)
  }

  @Test func theSignpostCategoryCarriesTheServiceName() {
    #expect(FieldSignposts.category(of: "Storage[\"cache\"]") == "Deferred/Storage[\"cache\"]")
    #expect(FieldSignposts.service(inCategory: "Deferred/Storage") == "Storage")
    #expect(FieldSignposts.service(inCategory: "Deferred") == nil)
    #expect(FieldSignposts.service(inCategory: "Audio") == nil)
    let long = String(repeating: "é", count: 100)  // 200 bytes
    let category = FieldSignposts.category(of: long)
    #expect(category.utf8.count == FieldSignposts.servicePrefix.utf8.count + 120)
    #expect(
      FieldSignposts.Name.allCases.map { "\($0.staticName)" }
        == FieldSignposts.Name.allCases.map(\.rawValue))
  }
}

extension FieldMeasurementTests.App {
  /// Whatever else the app tells the container once it has settled.
  func appIsIdleAndSettled() {
    container.appIsIdle()
    scheduler.runAll()
  }
}
