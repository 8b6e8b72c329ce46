import Deferred
import DeferredSwiftUI
import Dispatch
import Foundation
import Testing

/// Counts the builds of a factory, from any thread.
final class Builds: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  private var onMain = 0

  func tick() {
    let main = Thread.isMainThread
    lock.withLock {
      count += 1
      if main { onMain += 1 }
    }
  }

  var total: Int { lock.withLock { count } }
  var onMainThread: Int { lock.withLock { onMain } }
}

final class Catalog: Sendable {}

@MainActor final class TapeModel {
  init() { MainActor.assertIsolated() }
}

/// Lets the tasks the loader started run, so that a build it forced would have happened.
func settle() async {
  for _ in 0..<50 { await Task.yield() }
}

@MainActor @Suite struct ServiceLoaderTests {
  @Test func aLoaderWaitsForTheLaunchAndBuildsNothing() async throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    let builds = Builds()
    try container.register(Catalog.self, priority: .afterFirstFrame()) {
      builds.tick()
      return Catalog()
    }
    let loader = ServiceLoader(Catalog.self, in: container)
    loader.start()
    await settle()
    guard case .waiting = loader.state else {
      Issue.record("a loader is ready before anything built its service: \(loader.state)")
      return
    }
    #expect(builds.total == 0)
    try container.launch()
    try container.firstFrameDrawn()
    #expect(builds.total == 0)
    #expect(scheduler.runAll() == 1)
    let catalog = try await loader.value()
    #expect(catalog === (try container.resolve(Catalog.self)))
    #expect(loader.service === catalog)
    #expect(builds.total == 1)
    let record = try #require(container.launchReport().builds.first { $0.service == "Catalog" })
    #expect(record.trigger == .scheduled)
  }

  @Test func aLoaderOfAMissingServiceFails() async throws {
    let loader = ServiceLoader(Catalog.self, in: Container())
    await #expect(throws: DeferredError.self) { try await loader.value() }
    guard case .failed(let error) = loader.state else {
      Issue.record("expected a failure, got \(loader.state)")
      return
    }
    #expect(error.code == .missingService)
  }

  @Test func buildNowBuildsAnOnDemandServiceOffTheMainThread() async throws {
    let container = Container()
    let builds = Builds()
    try container.register(Catalog.self) {
      builds.tick()
      return Catalog()
    }
    let loader = ServiceLoader(Catalog.self, in: container, policy: .buildNow)
    _ = try await loader.value()
    #expect(builds.total == 1)
    #expect(builds.onMainThread == 0)
  }

  @Test func aMainActorServiceComesInItsTurnOfTheMainLane() async throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.registerMainActor(TapeModel.self, priority: .afterFirstFrame()) { TapeModel() }
    let loader = ServiceLoader(TapeModel.self, in: container)
    loader.start()
    try container.launch()
    try container.firstFrameDrawn()
    await settle()
    #expect(loader.service == nil)
    #expect(scheduler.queuedOnMain == ["build TapeModel on main"])
    #expect(scheduler.runMainNext())
    let model = try await loader.value()
    #expect(model === (try container.resolve(TapeModel.self)))
    let record = try #require(container.launchReport().builds.first { $0.service == "TapeModel" })
    #expect(record.trigger == .scheduled && record.thread == "main")
  }

  @Test func aCancelledWaitThrowsAndTheLoaderGoesOnWaiting() async throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Catalog.self, priority: .afterFirstFrame()) { Catalog() }
    let loader = ServiceLoader(Catalog.self, in: container)
    let waiting = Task { try await loader.value() }
    await settle()
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    try container.launch()
    try container.firstFrameDrawn()
    scheduler.runAll()
    _ = try await loader.value()
  }

  @Test func everyWaiterGetsTheOneService() async throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Catalog.self, priority: .afterFirstFrame()) { Catalog() }
    let loader = ServiceLoader(Catalog.self, in: container)
    let first = Task { try await loader.value() }
    let second = Task { try await loader.value() }
    await settle()
    try container.launch()
    try container.firstFrameDrawn()
    scheduler.runAll()
    let (a, b) = (try await first.value, try await second.value)
    #expect(a === b)
  }

  @Test func aPreviewContainerBuildsItsServicesInTheirTurn() async throws {
    let builds = Builds()
    let container = Container.preview { container in
      try container.register(Catalog.self, priority: .afterFirstFrame()) {
        builds.tick()
        return Catalog()
      }
    }
    let loader = ServiceLoader(Catalog.self, in: container)
    _ = try await loader.value()
    #expect(builds.total == 1)
  }
}
