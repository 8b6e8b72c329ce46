import Testing

@testable import Deferred

@Suite struct RegistrationTests {
  @Test func registeringRunsNoFactory() throws {
    let container = Container()
    let runs = Runs()
    for index in 0..<10_000 {
      try container.register(box(index)) {
        runs.tick("box")
        return Box(index)
      }
    }
    try container.register(SyncService.self) { (storage: Storage, network: Network) in
      runs.tick("sync")
      return SyncService(storage: storage, network: network)
    }
    #expect(runs.total == 0)
    #expect(try container.resolve(box(9_999)).id == 9_999)
    #expect(runs.total == 1)
  }

  @Test func initializerReferenceDeclaresDependencies() throws {
    let container = Container()
    try container.register(Storage.self) { Storage() }
    try container.register(Network.self) { Network() }
    try container.register(SyncService.self, SyncService.init(storage:network:))
    let node = try #require(container.lookup(ServiceKey<SyncService>().erased))
    #expect(node.dependencies == [ServiceKey<Storage>().erased, ServiceKey<Network>().erased])
    let sync = try container.resolve(SyncService.self)
    #expect(sync.storage === (try container.resolve(Storage.self)))
  }

  @Test func resolverFormRecordsObservedEdges() throws {
    let container = Container()
    try container.register(Storage.self) { Storage() }
    try container.register(Network.self) { Network() }
    try container.register(SyncService.self) { resolver in
      SyncService(storage: try resolver.resolve(), network: try resolver.resolve())
    }
    let node = try #require(container.lookup(ServiceKey<SyncService>().erased))
    #expect(node.knownDependencies.isEmpty)
    _ = try container.resolve(SyncService.self)
    #expect(node.knownDependencies == [ServiceKey<Storage>().erased, ServiceKey<Network>().erased])
  }

  @Test func namedRegistrationsAreDistinct() throws {
    let container = Container()
    let disk = try container.register(Storage.self, name: "disk") { Storage(label: "disk") }
    try container.register(ServiceKey<Storage>(name: "memory")) { Storage(label: "memory") }
    try container.register(Storage.self) { Storage(label: "default") }
    #expect(try container.resolve(disk).label == "disk")
    #expect(try container.resolve(Storage.self, name: "memory").label == "memory")
    #expect(try container.resolve(Storage.self).label == "default")
  }

  @Test func namedDependencies() throws {
    let container = Container()
    let memory = ServiceKey<Storage>(name: "memory")
    try container.register(memory) { Storage(label: "memory") }
    try container.register(Network.self) { Network() }
    try container.register(
      ServiceKey<SyncService>(), dependencies: memory, ServiceKey<Network>(),
      factory: SyncService.init(storage:network:))
    #expect(try container.resolve(SyncService.self).storage.label == "memory")
  }

  @Test func duplicateRegistrationIsAnError() throws {
    let container = Container()
    try container.register(Storage.self) { Storage(label: "first") }
    let error = #expect(throws: DeferredError.self) {
      try container.register(Storage.self) { Storage(label: "second") }
    }
    #expect(error?.code == .duplicateRegistration)
    #expect(error?.service == "Storage")
    #expect(error?.description.contains("replacing: true") == true)
    #expect(try container.resolve(Storage.self).label == "first")
  }

  /// A duplicate, or a replacement, that comes when the lookup table is full makes room first:
  /// it is refused, or takes its key's place, and every key is still found, through the table
  /// published before the growth too.
  @Test func duplicateAndReplacementWhenTheTableGrows() throws {
    let container = Container()
    // The table starts with 8 slots, at most half full: the fifth key grows it.
    let keys = (0..<4).map { ServiceKey<Storage>(name: "s\($0)") }
    for (index, key) in keys.enumerated() {
      try container.register(key) { Storage(label: "\(index)") }
    }
    #expect(try container.resolve(keys[0]).label == "0")
    let error = #expect(throws: DeferredError.self) {
      try container.register(keys[1]) { Storage(label: "again") }
    }
    #expect(error?.code == .duplicateRegistration)
    #expect(error?.service.contains("s1") == true)
    try container.register(keys[2], replacing: true) { Storage(label: "replaced") }
    try container.register(ServiceKey<Storage>(name: "s4")) { Storage(label: "4") }
    #expect(try container.resolve(keys[1]).label == "1")
    #expect(try container.resolve(keys[2]).label == "replaced")
    #expect(try container.resolve(keys[3]).label == "3")
    #expect(try container.resolve(Storage.self, name: "s4").label == "4")
  }

  @Test func replacingOnPurpose() throws {
    let container = Container()
    try container.register(Storage.self) { Storage(label: "first") }
    try container.register(Storage.self, replacing: true) { Storage(label: "second") }
    #expect(try container.resolve(Storage.self).label == "second")
  }

  @Test func replacingABuiltServiceIsTooLate() throws {
    let container = Container()
    try container.register(Storage.self) { Storage(label: "first") }
    let built = try container.resolve(Storage.self)
    let error = #expect(throws: DeferredError.self) {
      try container.register(Storage.self, replacing: true) { Storage(label: "second") }
    }
    #expect(error?.code == .registrationTooLate)
    #expect(try container.resolve(Storage.self) === built)
  }

  @Test func registeringAfterResolvingAddsTheService() throws {
    let container = Container()
    try container.register(Storage.self) { Storage() }
    let storage = try container.resolve(Storage.self)
    try container.register(Network.self) { Network() }
    try container.register(SyncService.self, SyncService.init(storage:network:))
    #expect(try container.resolve(SyncService.self).storage === storage)
  }

  @Test func transientIsNewEveryTime() throws {
    let container = Container()
    let runs = Runs()
    try container.register(Storage.self) {
      runs.tick("storage")
      return Storage()
    }
    try container.register(Network.self) { Network() }
    try container.register(SyncService.self, scope: .transient) {
      (storage: Storage, network: Network) in
      runs.tick("sync")
      return SyncService(storage: storage, network: network)
    }
    let first = try container.resolve(SyncService.self)
    let second = try container.resolve(SyncService.self)
    #expect(first !== second)
    #expect(first.storage === second.storage)
    #expect(runs["sync"] == 2)
    #expect(runs["storage"] == 1)
  }

  @Test func keysDescribeThemselves() {
    #expect(ServiceKey<Storage>().description == "Storage")
    #expect(ServiceKey<Storage>(name: "cache").description == "Storage[\"cache\"]")
    #expect(ServiceKey<Storage>(name: "a") != ServiceKey<Storage>(name: "b"))
  }
}
