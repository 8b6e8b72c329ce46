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
    let old = try #require(container.node(for: ServiceKey<Storage>().erased))
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
    DispatchQueue.global().async {
      _ = try? container.resolve(Storage.self)
      built.fire()
    }
    started.wait()
    DispatchQueue.global().async {
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
