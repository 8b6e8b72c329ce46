import Dispatch
import Synchronization
import Testing

@testable import Deferred

@Suite struct ResolutionTests {
  @Test func singletonIsBuiltOnceAndShared() throws {
    let container = Container()
    let runs = Runs()
    try container.register(Storage.self) {
      runs.tick("storage")
      return Storage()
    }
    let first = try container.resolve(Storage.self)
    let second: Storage = try container.resolve()
    #expect(first === second)
    #expect(runs["storage"] == 1)
  }

  @Test func dependenciesAreBuiltFirst() throws {
    let container = Container()
    let order = Locked<[String]>([])
    try container.register(Storage.self) {
      order.withLock { $0.append("Storage") }
      return Storage()
    }
    try container.register(Network.self) {
      order.withLock { $0.append("Network") }
      return Network()
    }
    try container.register(SyncService.self) { (storage: Storage, network: Network) in
      order.withLock { $0.append("SyncService") }
      return SyncService(storage: storage, network: network)
    }
    try container.register(AppModel.self, AppModel.init(sync:))
    let model = try container.resolve(AppModel.self)
    #expect(order.withLock { $0 } == ["Storage", "Network", "SyncService"])
    #expect(model.sync === (try container.resolve(SyncService.self)))
  }

  @Test func missingServiceNamesTheChainAndSuggestions() throws {
    struct NetworkClient: Sendable {}
    let container = Container()
    try container.register(NetworkClient.self) { NetworkClient() }
    try container.register(Storage.self) { Storage() }
    try container.register(SyncService.self, SyncService.init(storage:network:))
    try container.register(AppModel.self, AppModel.init(sync:))
    let error = #expect(throws: DeferredError.self) { try container.resolve(AppModel.self) }
    #expect(error?.code == .missingService)
    #expect(error?.service == "Network")
    #expect(error?.chain == ["AppModel", "SyncService", "Network"])
    #expect(error?.suggestions == ["NetworkClient"])
    #expect(
      error?.description
        == "No registration for Network, needed by AppModel → SyncService → Network."
        + " Closest registered: NetworkClient."
        + " Register it with `container.register(Network.self) { ... }`.")
  }

  @Test func missingDependencyAfterAPendingOneLeavesNothingClaimed() throws {
    // SyncService declares Storage (registered, not built: walked first) and Network
    // (missing): the walk stops at Network, and every build it claimed is released, so that
    // the same resolve succeeds once Network is registered.
    let container = Container()
    let runs = Runs()
    try container.register(Storage.self) {
      runs.tick("storage")
      return Storage()
    }
    try container.register(SyncService.self) { (storage: Storage, network: Network) in
      runs.tick("sync")
      return SyncService(storage: storage, network: network)
    }
    for _ in 0..<2 {
      let error = #expect(throws: DeferredError.self) { try container.resolve(SyncService.self) }
      #expect(error?.code == .missingService)
      #expect(error?.chain == ["SyncService", "Network"])
    }
    try container.register(Network.self) { Network() }
    _ = try container.resolve(SyncService.self)
    #expect(runs["storage"] == 1)
    #expect(runs["sync"] == 1)
  }

  @Test func missingAtTopLevel() {
    let container = Container()
    let error = #expect(throws: DeferredError.self) { try container.resolve(Storage.self) }
    #expect(error?.code == .missingService)
    #expect(error?.chain == ["Storage"])
    #expect(error?.description.hasPrefix("No registration for Storage.") == true)
  }

  @Test func throwingFactoryIsWrappedNotCachedAndRetried() throws {
    let container = Container()
    let attempts = Atomic<Int>(0)
    try container.register(Storage.self) {
      let attempt = attempts.add(1, ordering: .relaxed).newValue
      if attempt == 1 { throw Failure(message: "disk full") }
      return Storage(label: "attempt \(attempt)")
    }
    try container.register(Network.self) { Network() }
    try container.register(SyncService.self, SyncService.init(storage:network:))
    let error = #expect(throws: DeferredError.self) { try container.resolve(SyncService.self) }
    #expect(error?.code == .factoryFailed)
    #expect(error?.service == "Storage")
    #expect(error?.chain == ["SyncService", "Storage"])
    #expect((error?.underlying as? Failure)?.message == "disk full")
    #expect(
      error?.description
        == "The factory of Storage threw disk full, needed by SyncService → Storage."
        + " Nothing was cached: the next resolve tries again.")
    let sync = try container.resolve(SyncService.self)
    #expect(sync.storage.label == "attempt 2")
    #expect(attempts.load(ordering: .relaxed) == 2)
    let node = try #require(container.lookup(ServiceKey<Storage>().erased))
    #expect(node.withState { $0.isPublished })
    let storageBuilds = container.launchReport().builds.filter { $0.service == "Storage" }
    #expect(storageBuilds.map(\.attempt) == [1, 2])
  }

  @Test func sameThreadCycleFailsWithTheLoop() throws {
    final class A: Sendable { init(_: C) {} }
    final class B: Sendable { init(_: A) {} }
    final class C: Sendable { init(_: B) {} }
    let container = Container()
    let runs = Runs()
    try container.register(A.self) { (c: C) in
      runs.tick("A")
      return A(c)
    }
    try container.register(B.self) { (a: A) in
      runs.tick("B")
      return B(a)
    }
    try container.register(C.self) { (b: B) in
      runs.tick("C")
      return C(b)
    }
    let error = #expect(throws: DeferredError.self) { try container.resolve(A.self) }
    #expect(error?.code == .cycle)
    #expect(error?.cycle == ["A", "C", "B", "A"])
    #expect(error?.description.hasPrefix("Dependency cycle: A → C → B → A") == true)
    #expect(runs.total == 0)
    // Nothing is left claimed: the same error again, not a hang.
    #expect(throws: DeferredError.self) { try container.resolve(B.self) }
  }

  @Test func cycleThroughResolverFormFails() throws {
    let container = Container()
    try container.register(Storage.self) { resolver in
      _ = try resolver.resolve(Network.self)
      return Storage()
    }
    try container.register(Network.self) { resolver in
      _ = try resolver.resolve(Storage.self)
      return Network()
    }
    let error = #expect(throws: DeferredError.self) { try container.resolve(Storage.self) }
    #expect(error?.code == .cycle)
    #expect(error?.cycle == ["Storage", "Network", "Storage"])
  }

  @Test func cycleAcrossThreadsFailsOnBothInsteadOfHanging() throws {
    let container = Container()
    let storageStarted = Signal()
    let networkStarted = Signal()
    try container.register(Storage.self) { resolver in
      storageStarted.fire()
      networkStarted.wait()
      _ = try resolver.resolve(Network.self)
      return Storage()
    }
    try container.register(Network.self) { resolver in
      networkStarted.fire()
      storageStarted.wait()
      _ = try resolver.resolve(Storage.self)
      return Network()
    }
    let errors = Locked<[DeferredError]>([])
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      do {
        if index == 0 {
          _ = try container.resolve(Storage.self)
        } else {
          _ = try container.resolve(Network.self)
        }
      } catch {
        errors.withLock { $0.append(error as! DeferredError) }
      }
    }
    let all = errors.withLock { $0 }
    #expect(all.count == 2)
    for error in all {
      #expect(error.code == .cycle)
      #expect(Set(error.cycle) == ["Storage", "Network"])
      #expect(error.cycle.count == 3)
    }
  }

  @Test func waitLimitNamesTheHolder() throws {
    let container = Container(waitLimit: .milliseconds(20))
    let started = Signal()
    let release = Signal()
    try container.register(Storage.self) {
      started.fire()
      release.wait()
      return Storage()
    }
    let group = DispatchGroup()
    startThread(in: group) { _ = try? container.resolve(Storage.self) }
    started.wait()
    let error = #expect(throws: DeferredError.self) { try container.resolve(Storage.self) }
    release.fire()
    group.wait()
    #expect(error?.code == .waitTimedOut)
    #expect(error?.holder?.isEmpty == false)
    #expect(error?.holder != "main")
    #expect(error?.description.contains("is still building it") == true)
    #expect(try container.resolve(Storage.self).label == "disk")
  }

  @Test func deepChainNeedsNoDeepStack() throws {
    let container = Container()
    try container.register(box(0)) { Box(0) }
    for index in 1..<10_000 {
      try container.register(box(index), dependencies: box(index - 1)) { Box(index, [$0]) }
    }
    let result = Locked<Int?>(nil)
    onThread(stackSize: 512 * 1024) {
      let last = try? container.resolve(box(9_999))
      result.withLock { $0 = last?.dependencies.first?.id }
    }
    #expect(result.withLock { $0 } == 9_998)
  }

  @Test func aWalkPastItsFirstFramesFailsWholeAndIsRetried() throws {
    // Twelve services deep, so that the walk outgrows the frames it keeps on the native stack;
    // the one in the middle resolves through its resolver, a walk nested in the walk. The
    // deepest throws once: the error leaves both walks, and every build they claimed is let go.
    let container = Container()
    let attempts = Atomic<Int>(0)
    let runs = Runs()
    try container.register(box(0)) { _ in
      runs.tick("0")
      if attempts.add(1, ordering: .relaxed).newValue == 1 {
        throw Failure(message: "disk full")
      }
      return Box(0)
    }
    for index in 1..<12 where index != 6 {
      try container.register(box(index), dependencies: box(index - 1)) {
        runs.tick("\(index)")
        return Box(index, [$0])
      }
    }
    try container.register(box(6)) { resolver in
      runs.tick("6")
      return Box(6, [try resolver.resolve(box(5))])
    }
    let error = #expect(throws: DeferredError.self) { try container.resolve(box(11)) }
    #expect(error?.code == .factoryFailed)
    #expect(error?.service == box(0).description)
    #expect(error?.chain.count == 12)
    for index in 0..<12 {
      let node = try #require(container.lookup(box(index).erased))
      #expect(node.withState { $0.isIdle }, "box\(index) was left claimed or built")
    }
    // Only the deepest ran, and the one that resolves through its resolver.
    #expect((0..<12).map { runs["\($0)"] } == [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0])
    var link: Box? = try container.resolve(box(11))
    var ids: [Int] = []
    while let current = link {
      ids.append(current.id)
      link = current.dependencies.first
    }
    #expect(ids == Array((0..<12).reversed()))
    #expect((0..<12).map { runs["\($0)"] } == [2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1])
  }

  @Test func requireTrapsWithTheSameMessage() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let container = Container()
      _ = container.require(Storage.self)
    }.map { result in
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("Deferred: No registration for Storage."))
    }
  }
}

/// Services of every shape a composition root registers: protocol existentials, structs with
/// references in them, plain values, and what they hold is released with the container.
@Suite struct ValueShapeTests {
  protocol Greeter: Sendable { func greet() -> String }
  struct English: Greeter { func greet() -> String { "hello" } }
  final class Releases: Sendable {
    let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
  }
  final class Probe: Sendable {
    let onDeinit: @Sendable () -> Void
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
  }
  struct Settings: Sendable {
    let name: String
    let probe: Probe
  }

  @Test func existentialStructAndPlainValuesResolveAsTheirType() throws {
    let container = Container()
    try container.register((any Greeter).self) { English() }
    try container.register(Int.self, name: "answer") { 42 }
    try container.register(Settings.self) {
      Settings(name: String(repeating: "long name ", count: 4), probe: Probe {})
    }
    try container.register(String.self, scope: .transient) { (settings: Settings) in
      settings.name + "!"
    }
    #expect(try container.resolve((any Greeter).self).greet() == "hello")
    #expect(try container.resolve(Int.self, name: "answer") == 42)
    let settings = try container.resolve(Settings.self)
    #expect(try container.resolve(Settings.self).probe === settings.probe)
    #expect(try container.resolve(String.self) == settings.name + "!")
  }

  @Test func builtValuesAreReleasedWithTheirContainer() throws {
    let released = Releases()
    var container: Container? = Container()
    try container?.register(Settings.self) {
      Settings(name: "cached", probe: Probe { released.add() })
    }
    try container?.register(Probe.self, scope: .transient) { Probe { released.add() } }
    _ = try container?.resolve(Settings.self)
    _ = try container?.resolve(Probe.self)  // released as soon as it is dropped
    #expect(released.count.load(ordering: .relaxed) == 1)
    container = nil
    #expect(released.count.load(ordering: .relaxed) == 2)
  }
}
