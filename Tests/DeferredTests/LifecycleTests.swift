import Dispatch
import Synchronization
import Testing

@testable import Deferred

/// Registrations replaced while work waits for them, and what a container leaves behind.
@Suite struct LifecycleTests {
  @Test func workQueuedForAReplacedRegistrationGoesToTheReplacement() throws {
    let container = Container()
    try container.register(Storage.self) { Storage(label: "old") }
    let delivered = Signal()
    let labels = Locked<[String]>([])
    try container.whenReady(Storage.self, on: .global()) { storage in
      labels.withLock { $0.append(storage.label) }
      delivered.fire()
    }
    try container.register(Storage.self, replacing: true) { Storage(label: "new") }
    #expect(try container.resolve(Storage.self).label == "new")
    delivered.wait()
    #expect(labels.withLock { $0 } == ["new"])
  }

  @Test func aResolveThatFoundTheReplacedRegistrationBuildsTheReplacement() throws {
    let container = Container()
    let runs = Runs()
    try container.register(Storage.self) {
      runs.tick("old")
      return Storage(label: "old")
    }
    let old = try #require(container.lookup(ServiceKey<Storage>().erased))
    try container.register(Storage.self, replacing: true) {
      runs.tick("new")
      return Storage(label: "new")
    }
    // As a resolve that looked the service up just before the replacement would.
    let built = try old.resolveSlow(BuildContext.current, as: Storage.self)
    #expect(built.label == "new")
    #expect(try container.resolve(Storage.self) === built)
    #expect(runs["old"] == 0 && runs["new"] == 1)
  }

  @Test func workPendingWhenTheContainerGoesIsReleasedWithWhatItCaptured() throws {
    final class Captured: Sendable {}
    weak var weakContainer: Container?
    weak var weakCaptured: Captured?
    do {
      let container = Container()
      weakContainer = container
      try container.register(Storage.self) { Storage() }
      let captured = Captured()
      weakCaptured = captured
      try container.whenReady(Storage.self, on: .global()) { _ in _ = captured }
    }
    #expect(weakContainer == nil)
    #expect(weakCaptured == nil)
  }

  @Test func declaredAndResolvedDependenciesCountAlikeInInclusiveTime() throws {
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let declared = Container(scheduler: scheduler, clock: clock)
    let resolved = Container(scheduler: scheduler, clock: clock)
    for container in [declared, resolved] {
      try container.register(Storage.self) {
        clock.advance(by: .milliseconds(3))
        return Storage()
      }
    }
    try declared.register(SyncService.self) { (storage: Storage) in
      clock.advance(by: .milliseconds(5))
      return SyncService(storage: storage, network: Network())
    }
    try resolved.register(SyncService.self) { resolver in
      let storage = try resolver.resolve(Storage.self)
      clock.advance(by: .milliseconds(5))
      return SyncService(storage: storage, network: Network())
    }
    for container in [declared, resolved] {
      _ = try container.resolve(SyncService.self)
      let builds = container.launchReport().builds
      let sync = try #require(builds.first { $0.service == "SyncService" })
      let storage = try #require(builds.first { $0.service == "Storage" })
      #expect(sync.duration == .milliseconds(8) && sync.selfDuration == .milliseconds(5))
      #expect(storage.duration == .milliseconds(3) && storage.requestedBy == "SyncService")
      #expect(sync.start <= storage.start && storage.end <= sync.end)
    }
  }

  @Test func aWaitForAnotherThreadsBuildIsInclusiveTimeNotSelfTime() throws {
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let container = Container(scheduler: scheduler, clock: clock)
    let started = Signal()
    let release = Signal()
    try container.register(Storage.self) {
      started.fire()
      release.wait()
      return Storage()
    }
    try container.register(SyncService.self) { (storage: Storage) in
      clock.advance(by: .milliseconds(2))
      return SyncService(storage: storage, network: Network())
    }
    let waiting = Signal()
    container.onWait { event in
      #expect(event.service == "Storage" && event.waitingService == "SyncService")
      waiting.fire()
    }
    let built = Signal()
    startThread {
      _ = try? container.resolve(Storage.self)
      built.fire()
    }
    started.wait()
    startThread {
      waiting.wait()
      clock.advance(by: .milliseconds(8))
      release.fire()
    }
    _ = try container.resolve(SyncService.self)
    built.wait()
    let sync = try #require(container.launchReport().builds.first { $0.service == "SyncService" })
    #expect(sync.duration == .milliseconds(10))
    #expect(sync.selfDuration == .milliseconds(2))
  }
}

/// The cells of the lifecycle table (Docs/Design.md, "Lifecycle") after a shutdown that no
/// other suite covers.
@Suite struct ShutDownLifecycleTests {
  @Test func registeringAfterShutDownIsRefused() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(Storage.self) { Storage() }
    container.shutDown()
    let error = #expect(throws: DeferredError.self) {
      try container.register(Network.self) { Network() }
    }
    #expect(error?.code == .shutDown)
    #expect(error?.description == "Cannot register Network: the container was shut down.")
  }

  @Test func shuttingDownTwiceIsHarmlessAndFinal() async throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Storage.self, priority: .afterFirstFrame()) { Storage() }
    try container.launch()
    try container.firstFrameDrawn()
    container.shutDown()
    container.shutDown()
    scheduler.runAll()
    #expect(!container.isFullyReady)
    let error = await #expect(throws: DeferredError.self) { try await container.fullyReady() }
    #expect(error?.code == .shutDown)
    #expect(throws: DeferredError.self) { try container.firstFrameDrawn() }
  }

  @Test func whenReadyAfterShutDownIsRefusedAndWorkQueuedBeforeIsReleased() throws {
    final class Captured: Sendable {}
    weak var weakCaptured: Captured?
    let container = Container(scheduler: ManualScheduler())
    try container.register(Storage.self) { Storage() }
    do {
      let captured = Captured()
      weakCaptured = captured
      try container.whenReady(Storage.self, on: .global()) { _ in _ = captured }
    }
    container.shutDown()
    let error = #expect(throws: DeferredError.self) {
      try container.whenReady(Storage.self, on: .global()) { _ in }
    }
    #expect(error?.code == .shutDown)
    // Held while the container lives (a shut-down container builds nothing, so it is never
    // delivered), released with it.
    #expect(weakCaptured != nil)
    _ = consume container
    #expect(weakCaptured == nil)
  }

  @Test func aBuiltServiceIsNotHandedOutAfterShutDown() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(Storage.self) { Storage() }
    _ = try container.resolve(Storage.self)
    container.shutDown()
    let error = #expect(throws: DeferredError.self) { try container.resolve(Storage.self) }
    #expect(error?.code == .shutDown)
  }
}
