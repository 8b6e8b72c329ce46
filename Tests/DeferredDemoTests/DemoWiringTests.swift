import Deferred
import DeferredDemoKit
import Testing

/// The demo app's service graph, and what each launch mode builds when, stepped through with
/// the manual scheduler and clock.
@Suite struct DemoWiringTests {
  @Test(arguments: LaunchMode.allCases)
  func serviceGraphValidates(mode: LaunchMode) throws {
    let fixture = try DemoFixture()
    let container = try AppServices.makeContainer(
      mode: mode, files: fixture.files, workload: .tiny, scheduler: ManualScheduler())
    #expect(container.validate().isEmpty)
  }

  @MainActor @Test func deferredLaunchBuildsOnlyWhatTheFirstFrameNeeds() async throws {
    let fixture = try DemoFixture()
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let container = try AppServices.makeContainer(
      mode: .deferred, files: fixture.files, workload: .tiny, scheduler: scheduler,
      clock: clock, maxConcurrentBuilds: 2)
    clock.advance(by: .milliseconds(1))
    try container.launch()
    #expect(Self.built(container) == ["Storage", "CachedConfig", "ThemeEngine"])
    #expect(scheduler.queued.isEmpty)

    // The first frame is drawn from what the launch built, and builds nothing more.
    clock.advance(by: .milliseconds(1))
    let frame: KeypadFrame = try { try container.resolve() }()
    #expect(frame.text.contains("config v3 (cached)"))
    try container.firstFrameDrawn()
    #expect(Self.built(container) == ["Storage", "CachedConfig", "ThemeEngine"])
    #expect(container.launchReport().transients.map(\.service) == ["KeypadFrame"])

    // After it: the async sync service takes no slot and is handed over at once; then the
    // calculator first (user-initiated), two synchronous builds at a time. Idle services wait.
    #expect(
      scheduler.queued == ["build SyncService", "build Calculator", "build LocationProvider"])
    clock.advance(by: .milliseconds(1))
    scheduler.runNext()
    scheduler.runNext()
    scheduler.runNext()
    _ = try await whenBuilt(DeferredDemoKit.SyncService.self, in: container)
    // The tape's features take the slots the calculator and location leave (location's job
    // carried on with them, one after another).
    scheduler.runAll()
    #expect(
      Set(Self.built(container)).isSuperset(of: [
        "TipsCatalog", "Achievements", "TapeIndex", "Suggestions",
      ]))
    #expect(scheduler.queued.isEmpty)
    // The keypad's view model needed the calculator: now it takes its turn on the main lane.
    #expect(scheduler.queuedOnMain == ["build KeypadModel on main"])
    #expect(scheduler.runMainNext())
    #expect(!container.isFullyReady)

    // The app settles: the idle services go.
    clock.advance(by: .milliseconds(1))
    container.appIsIdle()
    #expect(scheduler.queued == ["build ConfigRefresh", "build Conversions"])
    scheduler.runAll()
    try await container.fullyReady()

    let report = container.launchReport()
    let phases = Dictionary(uniqueKeysWithValues: report.builds.map { ($0.service, $0) })
    for service in ["Storage", "CachedConfig", "ThemeEngine"] {
      #expect(phases[service]?.stage == .critical)
      #expect(phases[service]?.trigger == .launch)
    }
    for service in [
      "Calculator", "KeypadModel", "LocationProvider", "SyncService", "TipsCatalog",
      "Achievements", "TapeIndex", "Suggestions",
    ] {
      #expect(phases[service]?.stage == .afterFirstFrame)
      #expect(phases[service]?.trigger == .scheduled)
    }
    for service in ["Conversions", "ConfigRefresh"] {
      #expect(phases[service]?.stage == .idle)
      #expect(phases[service]?.trigger == .scheduled)
    }
    // The remote is built on demand, for sync, when sync first needs it.
    #expect(phases["SimulatedRemote"]?.stage == .onDemand)
    #expect(phases["SimulatedRemote"]?.trigger == .onDemand)
    #expect(phases["SimulatedRemote"]?.requestedBy == "SyncService")
    #expect(phases["KeypadModel"]?.thread == "main")
    #expect(report.builds.count == 14)
    #expect(report.milestones.map(\.kind) == Milestone.Kind.allCases)
    #expect(report.offset(of: .firstFrame)! < report.offset(of: .fullyReady)!)
  }

  @MainActor @Test func eagerLaunchBuildsEverythingBeforeTheFirstFrame() async throws {
    let fixture = try DemoFixture()
    let scheduler = ManualScheduler()
    let container = try AppServices.makeContainer(
      mode: .eager, files: fixture.files, workload: .tiny, scheduler: scheduler,
      clock: scheduler.clock)
    try container.launch()
    // (Under the manual clock every build starts at the same reading: which, not in what order.)
    #expect(
      Set(Self.built(container)) == [
        "Storage", "CachedConfig", "ThemeEngine", "Calculator", "KeypadModel",
        "LocationProvider", "SimulatedRemote", "Conversions", "TipsCatalog", "Achievements",
        "TapeIndex", "Suggestions",
      ])
    // The async services cannot be built inside launch(): the eager app awaits them.
    _ = try await container.awaitService(DeferredDemoKit.SyncService.self)
    _ = try await container.awaitService(ConfigRefresh.self)
    try container.firstFrameDrawn()
    #expect(scheduler.queued.isEmpty)
    #expect(container.isFullyReady)

    let report = container.launchReport()
    #expect(report.builds.count == 14)
    #expect(report.builds.allSatisfy { $0.trigger != .scheduled })
    #expect(report.offset(of: .fullyReady) == report.offset(of: .firstFrame))
    // Every synchronous service was built by launch(), on the launching thread.
    #expect(report.builds.filter { $0.trigger == .launch }.count == 12)
  }

  /// The services built so far, in the order they started.
  private static func built(_ container: Container) -> [String] {
    container.launchReport().builds.map(\.service)
  }
}
