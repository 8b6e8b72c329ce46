import Dispatch
import Synchronization
import Testing

@testable import Deferred

@Suite struct AsyncTests {
  static func container(runs: Runs, scheduler: some LaunchScheduler = DispatchScheduler()) throws
    -> Container
  {
    let container = Container(scheduler: scheduler)
    try container.register(Storage.self) {
      runs.tick("Storage")
      return Storage()
    }
    try container.register(Network.self) { () async in
      runs.tick("Network")
      await Task.yield()
      return Network()
    }
    try container.register(SyncService.self, priority: .afterFirstFrame()) {
      (storage: Storage, network: Network) async throws in
      runs.tick("SyncService")
      await Task.yield()
      return SyncService(storage: storage, network: network)
    }
    return container
  }

  @Test func asyncResolveFromManyTasksBuildsOnce() async throws {
    let runs = Runs()
    let container = try Self.container(runs: runs)
    let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<200 {
        group.addTask { ObjectIdentifier(try await container.awaitService(SyncService.self)) }
      }
      return try await group.reduce(into: Set()) { $0.insert($1) }
    }
    #expect(identities.count == 1)
    #expect(runs["SyncService"] == 1)
    #expect(runs["Network"] == 1)
    #expect(runs["Storage"] == 1)
  }

  @Test func synchronousResolveOfAnAsyncServicePointsToTheAsyncForm() async throws {
    let runs = Runs()
    let container = try Self.container(runs: runs)
    let error = #expect(throws: DeferredError.self) {
      try container.resolve(SyncService.self)
    }
    #expect(error?.code == .asyncService)
    #expect(error?.service == "SyncService")
    #expect(
      error?.description.contains("try await container.awaitService(SyncService.self)") == true)
    #expect(runs.total == 0)
    // Once built, a synchronous resolve hands it out.
    let sync = try await container.awaitService(SyncService.self)
    #expect(try container.resolve(SyncService.self) === sync)
  }

  @Test func synchronousServiceNeedingAnAsyncOneIsAClearError() throws {
    let container = Container()
    try container.register(Network.self) { () async in Network() }
    try container.register(Storage.self) { (_: Network) in Storage() }
    let error = #expect(throws: DeferredError.self) { try container.resolve(Storage.self) }
    #expect(error?.code == .asyncService)
    #expect(error?.chain == ["Storage", "Network"])
  }

  /// An async build may end on another thread than it began on: it records wall time only.
  @Test func asyncBuildRecordsNoCPUTime() async throws {
    let container = Container(recording: .timingsAndCPU)
    try container.register(Network.self) { () async in
      await Task.yield()
      return Network()
    }
    _ = try await container.awaitService(Network.self)
    let build = try #require(container.launchReport().builds.first)
    #expect(build.thread == "task")
    #expect(build.cpu == nil)
  }

  @Test func asyncServicesAreScheduledAfterTheFirstFrame() async throws {
    let runs = Runs()
    let container = try Self.container(runs: runs)
    try container.launch()
    #expect(runs.total == 0)
    try container.firstFrameDrawn()
    try await container.fullyReady()
    #expect(runs["SyncService"] == 1)
    #expect(container.isFullyReady)
  }

  @Test func asyncFactoryFailureIsTypedAndRetried() async throws {
    let container = Container()
    let attempts = Atomic<Int>(0)
    try container.register(Network.self) { () async throws in
      if attempts.add(1, ordering: .relaxed).newValue == 1 { throw Failure(message: "timeout") }
      return Network()
    }
    let error = await #expect(throws: DeferredError.self) {
      try await container.awaitService(Network.self)
    }
    #expect(error?.code == .factoryFailed)
    #expect((error?.underlying as? Failure)?.message == "timeout")
    #expect(try await container.awaitService(Network.self).online)
  }

  @Test func asyncCycleFails() async throws {
    final class A: Sendable { init(_: B) {} }
    final class B: Sendable { init(_: A) {} }
    let container = Container()
    try container.register(A.self) { (b: B) async in A(b) }
    try container.register(B.self) { (a: A) async in B(a) }
    let error = await #expect(throws: DeferredError.self) {
      try await container.awaitService(A.self)
    }
    #expect(error?.code == .cycle)
    #expect(error?.cycle == ["A", "B", "A"])
  }

  @Test func synchronousResolveCompilesAndReturnsInAsyncCode() async throws {
    let container = Container()
    try container.register(Storage.self) { Storage() }
    // No `await`: in async code the synchronous form is chosen, not the awaiting one.
    let built = try container.resolve(Storage.self)
    #expect(try container.resolve(Storage.self) === built)
    #expect(try await container.awaitService(Storage.self) === built)
  }

  @MainActor @Test func awaitingFromTheMainActorStaysOnIt() async throws {
    let container = Container()
    try container.register(Storage.self) { Storage() }
    let built = try await container.awaitService(Storage.self)
    MainActor.assertIsolated()
    #expect(try await container.awaitService(Storage.self) === built)
  }
}
