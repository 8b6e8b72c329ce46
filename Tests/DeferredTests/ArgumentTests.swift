import Dispatch
import Testing

@testable import Deferred

final class DetailModel: Sendable {
  let id: Int
  let storage: Storage
  init(id: Int, storage: Storage) {
    self.id = id
    self.storage = storage
  }
}

final class DetailScreen: Sendable {
  let model: DetailModel
  init(model: DetailModel) { self.model = model }
}

@Suite struct ArgumentTests {
  @Test func theArgumentAndTheDependenciesReachTheFactory() throws {
    let runs = Runs()
    let container = Container()
    try container.register(Storage.self) {
      runs.tick("Storage")
      return Storage()
    }
    let detail = try container.register(DetailModel.self, argument: Int.self) {
      (id: Int, storage: Storage) in
      runs.tick("DetailModel")
      return DetailModel(id: id, storage: storage)
    }
    // A wrong argument type does not compile (the key carries `Int`), so no test can try it:
    //   try container.resolve(detail, argument: "42")
    let first = try container.resolve(detail, argument: 42)
    let second = try container.resolve(detail, argument: 42)
    #expect(first.id == 42 && second.id == 42)
    #expect(first !== second)  // not cached
    #expect(first.storage === second.storage)  // the singleton, built once
    #expect(runs["DetailModel"] == 2 && runs["Storage"] == 1)
    #expect(detail.description == "DetailModel(Int)")
  }

  @Test func severalArgumentsAreOneTuple() throws {
    let container = Container()
    let row = try container.register(String.self, argument: (section: Int, item: Int).self) {
      (index: (section: Int, item: Int)) in "\(index.section).\(index.item)"
    }
    #expect(try container.resolve(row, argument: (section: 2, item: 5)) == "2.5")
  }

  @Test func aMissingFactoryOrDependencyIsNamed() throws {
    let container = Container()
    let missing = FactoryKey<Int, DetailModel>()
    #expect(throws: DeferredError.self) { try container.resolve(missing, argument: 1) }
    let detail = try container.register(DetailModel.self, argument: Int.self) {
      (id: Int, storage: Storage) in DetailModel(id: id, storage: storage)
    }
    let error = try #require(throws: DeferredError.self) {
      try container.resolve(detail, argument: 1)
    }
    #expect(error.code == .missingService)
    #expect(error.chain == ["DetailModel(Int)", "Storage"])
    let issues = container.validate()
    #expect(issues.map(\.service) == ["Storage"])
    #expect(issues.first?.chain == ["DetailModel(Int)", "Storage"])
  }

  @Test func aCycleThroughAnArgumentFactoryIsNamed() throws {
    let container = Container()
    let detail = FactoryKey<Int, DetailModel>()
    try container.register(Storage.self) { resolver in
      _ = try resolver.resolve(detail, argument: 1)
      return Storage()
    }
    try container.register(DetailModel.self, argument: Int.self) {
      (id: Int, storage: Storage) in DetailModel(id: id, storage: storage)
    }
    let error = try #require(throws: DeferredError.self) { try container.resolve(Storage.self) }
    #expect(error.code == .cycle)
    #expect(error.cycle == ["Storage", "DetailModel(Int)", "Storage"])
  }

  @Test func theCacheHitsAndMissesByArgument() throws {
    let runs = Runs()
    let container = Container()
    try container.register(Storage.self) { Storage() }
    let detail = try container.register(DetailModel.self, argument: Int.self, cachingUpTo: 2) {
      (id: Int, storage: Storage) in
      runs.tick("\(id)")
      return DetailModel(id: id, storage: storage)
    }
    let one = try container.resolve(detail, argument: 1)
    #expect(try container.resolve(detail, argument: 1) === one)  // hit
    _ = try container.resolve(detail, argument: 2)  // miss
    #expect((runs["1"], runs["2"]) == (1, 1))
    _ = try container.resolve(detail, argument: 3)  // miss: the oldest, 1, is dropped
    #expect(try container.resolve(detail, argument: 1) !== one)
    #expect(runs["1"] == 2)
    #expect(try container.resolve(detail, argument: 3).id == 3)
    #expect(runs["3"] == 1)  // still held
    container.clearCache(of: detail)
    _ = try container.resolve(detail, argument: 3)
    #expect(runs["3"] == 2)
  }

  /// A cached value whose `deinit` clears its own cache and resolves from it again, dropped
  /// by the limit, by `clearCache(of:)` and by the deinit itself; and an argument whose
  /// `Hashable` reads the cache: none of that runs under the cache's lock.
  @Test func aCachedValuesDeinitAndAnArgumentsHashableMayUseTheCache() throws {
    let container = Container()
    let key = Locked<FactoryKey<ReentrantArgument, Reentrant>?>(nil)
    let dropped = Locked(0)
    key.withLock {
      $0 = try? container.register(
        Reentrant.self, argument: ReentrantArgument.self, cachingUpTo: 2
      ) { (argument: ReentrantArgument) in
        Reentrant(argument.id) {
          dropped.withLock { $0 += 1 }
          // The container, as the argument holds it: weakly.
          guard let container = argument.container, let key = key.withLock({ $0 }) else {
            return
          }
          container.clearCache(of: key)
          _ = try? container.resolve(key, argument: ReentrantArgument(id: -1, container: nil))
        }
      }
    }
    let factory = try #require(key.withLock { $0 })
    for id in 0..<5 {
      _ = try container.resolve(factory, argument: ReentrantArgument(id: id, container: container))
    }
    #expect(dropped.withLock { $0 } >= 3)
    container.clearCache(of: factory)
    _ = try container.resolve(factory, argument: ReentrantArgument(id: 7, container: container))
    container.clearCache(of: factory)
    #expect(dropped.withLock { $0 } >= 5)
    // An argument whose `==` and `hash(into:)` clear the cache.
    let argument = ReentrantArgument(id: 9, container: container, clearing: factory)
    _ = try container.resolve(factory, argument: argument)
    _ = try container.resolve(factory, argument: argument)
  }

  @Test func aCachedArgumentIsMadeOnceByThreadsAtOnce() throws {
    let runs = Runs()
    let container = Container()
    try container.register(Storage.self) { Storage() }
    let detail = try container.register(DetailModel.self, argument: Int.self, cachingUpTo: 10) {
      (id: Int, storage: Storage) in
      runs.tick("\(id)")
      return DetailModel(id: id, storage: storage)
    }
    let made = Locked<Set<ObjectIdentifier>>([])
    DispatchQueue.concurrentPerform(iterations: 16) { index in
      let model = try? container.resolve(detail, argument: index % 2)
      made.withLock { _ = $0.insert(ObjectIdentifier(model!)) }
    }
    #expect(made.withLock { $0.count } == 2)
    #expect((runs["0"], runs["1"]) == (1, 1))
  }

  @Test func aChildThatOverridesADependencyHasItsOwnCache() throws {
    let container = Container()
    try container.register(Storage.self) { Storage(label: "disk") }
    let detail = try container.register(DetailModel.self, argument: Int.self, cachingUpTo: 10) {
      (id: Int, storage: Storage) in DetailModel(id: id, storage: storage)
    }
    let parents = try container.resolve(detail, argument: 1)
    let child = container.makeChild()
    try child.register(Storage.self) { Storage(label: "memory") }
    let childs = try child.resolve(detail, argument: 1)
    #expect(childs.storage.label == "memory")
    #expect(try container.resolve(detail, argument: 1) === parents)
    #expect(try child.resolve(detail, argument: 1) === childs)
    // A child that overrides nothing the factory needs shares the parent's cache.
    let plain = container.makeChild()
    #expect(try plain.resolve(detail, argument: 1) === parents)
  }

  @Test func insideALaunchItIsMadeAndRecordedAsATransient() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Storage.self) { Storage() }
    let detail = try container.register(DetailModel.self, argument: Int.self) {
      (id: Int, storage: Storage) in
      scheduler.clock.advance(by: .milliseconds(2))
      return DetailModel(id: id, storage: storage)
    }
    try container.register(DetailScreen.self, priority: .afterFirstFrame()) { resolver in
      DetailScreen(model: try resolver.resolve(detail, argument: 7))
    }
    try container.launch()
    try container.firstFrameDrawn()
    #expect(scheduler.queued == ["build DetailScreen"])
    scheduler.runAll()
    #expect(container.isFullyReady)
    #expect(try container.resolve(DetailScreen.self).model.id == 7)
    let report = container.launchReport()
    #expect(
      report.transients == [
        TransientRecord(
          service: "DetailModel(Int)", count: 1, total: .milliseconds(2),
          median: .milliseconds(2), max: .milliseconds(2))
      ])
    #expect(report.builds.map(\.service).sorted() == ["DetailScreen", "Storage"])
  }

  @Test func itsPriorityIsItsDependencies() throws {
    let scheduler = ManualScheduler()
    let runs = Runs()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Storage.self) {
      runs.tick("Storage")
      return Storage()
    }
    try container.register(Network.self) {
      runs.tick("Network")
      return Network()
    }
    try container.register(DetailModel.self, argument: Int.self, priority: .critical) {
      (id: Int, storage: Storage) in
      runs.tick("DetailModel")
      return DetailModel(id: id, storage: storage)
    }
    try container.register(SyncService.self, argument: String.self, priority: .afterFirstFrame()) {
      (_: String, storage: Storage, network: Network) in
      runs.tick("SyncService")
      return SyncService(storage: storage, network: network)
    }
    try container.launch()
    // Its dependencies are built at launch; it is not (it has no argument then).
    #expect((runs["Storage"], runs["Network"], runs["DetailModel"]) == (1, 0, 0))
    try container.firstFrameDrawn()
    #expect(scheduler.queued == ["build SyncService(String)"])
    scheduler.runAll()
    #expect((runs["Network"], runs["SyncService"]) == (1, 0))
    #expect(container.isFullyReady)
  }
}

/// A cached value that runs `onDeinit` as it goes.
final class Reentrant: Sendable {
  let id: Int
  let onDeinit: @Sendable () -> Void
  init(_ id: Int, onDeinit: @escaping @Sendable () -> Void) {
    self.id = id
    self.onDeinit = onDeinit
  }
  deinit { onDeinit() }
}

/// An argument whose `Hashable` clears the cache it is looked up in, when it is told which.
struct ReentrantArgument: Hashable, Sendable {
  let id: Int
  weak var container: Container?
  var clearing: FactoryKey<ReentrantArgument, Reentrant>?

  init(id: Int, container: Container?, clearing: FactoryKey<ReentrantArgument, Reentrant>? = nil) {
    self.id = id
    self.container = container
    self.clearing = clearing
  }

  static func == (left: Self, right: Self) -> Bool {
    left.clear()
    return left.id == right.id
  }

  func hash(into hasher: inout Hasher) {
    clear()
    hasher.combine(id)
  }

  private func clear() {
    if let clearing { container?.clearCache(of: clearing) }
  }
}
