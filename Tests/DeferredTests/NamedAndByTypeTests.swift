import Testing

@testable import Deferred

/// Needs a named storage between two found by type, with labelled parameters.
final class Pool: Sendable {
  let disk: Storage
  let network: Network
  let cache: Storage
  init(network: Network, cache: Storage, disk: Storage) {
    self.disk = disk
    self.network = network
    self.cache = cache
  }
}

@Suite struct NamedAndByTypeTests {
  @Test func aNamedDependencyMixesWithByTypeOnesInTheInitializerForm() throws {
    let container = Container(scheduler: ManualScheduler())
    let cache = ServiceKey<Storage>(name: "cache")
    try container.register(Storage.self) { Storage(label: "disk") }
    try container.register(cache) { Storage(label: "cache") }
    try container.register(Network.self) { Network() }
    try container.register(
      .byType, dependencies: .byType, cache, .byType, factory: Pool.init(network:cache:disk:))
    let pool = try container.resolve(Pool.self)
    #expect(pool.cache.label == "cache")
    #expect(pool.disk.label == "disk")
    #expect(container.validate().isEmpty)
  }

  @Test func theNamedFormWithAPromiseTakesByTypeKeysToo() throws {
    let container = Container(scheduler: ManualScheduler())
    let cache = ServiceKey<LegacyStore>(name: "cache")
    try container.register(cache, promising: .threadSafe) { LockedLegacyStore() }
    try container.register(Storage.self) { Storage() }
    try container.register(
      .byType, promising: .threadSafe, dependencies: cache, .byType,
      factory: LegacyFeed.init(store:storage:))
    #expect(try container.resolve(LegacyFeed.self).store === (try container.resolve(cache)))
  }
}
