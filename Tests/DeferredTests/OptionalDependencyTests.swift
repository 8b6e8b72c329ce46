import Testing

@testable import Deferred

/// A screen whose weather service is optional.
final class WeatherScreen: Sendable {
  let weather: Storage?
  init(weather: Storage?) { self.weather = weather }
}

/// Needs settings; a signed-in user if there is one (Swinject's `r.resolve(User.self)`).
final class SignedInMigrations: Sendable {
  let settings: Storage
  let user: Network?
  init(settings: Storage, user: Network?) {
    self.settings = settings
    self.user = user
  }
}

@Suite struct OptionalDependencyTests {
  @Test func anOptionalParameterOfAnInitializerReferenceIsNilWhenNothingIsRegistered() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(Storage.self) { Storage() }
    try container.register(
      SignedInMigrations.self, scope: .transient, SignedInMigrations.init(settings:user:))
    #expect(container.validate().isEmpty)
    #expect(try container.resolve(SignedInMigrations.self).user == nil)
    // Resolving the optional type itself answers the same way.
    #expect(try container.resolve(Network?.self) == nil)
  }

  @Test func anOptionalParameterIsTheServiceAndAnEdgeWhenItIsRegistered() throws {
    let container = Container(scheduler: ManualScheduler())
    let runs = Runs()
    try container.register(Storage.self, priority: .critical) { Storage() }
    try container.register(Network.self) {
      runs.tick("network")
      return Network()
    }
    try container.register(
      SignedInMigrations.self, priority: .critical, SignedInMigrations.init(settings:user:))
    // An edge for advice: the critical migrations need the network, which is not critical.
    #expect(container.validate().map(\.code) == [.criticalNeedsDeferred])
    try container.launch()
    #expect(runs["network"] == 1)
    let migrations = try container.resolve(SignedInMigrations.self)
    #expect(migrations.user === (try container.resolve(Network.self)))
    let report = container.launchReport()
    #expect(report.dependencies["SignedInMigrations"] == ["Storage", "Network"])
  }

  @Test func anOptionalDependencyClosesACycleWhenItIsRegistered() throws {
    final class Loop: Sendable { init(_: SignedInMigrations?) {} }
    let container = Container(scheduler: ManualScheduler())
    try container.register(Storage.self) { (_: Loop) in Storage() }
    try container.register(Loop.self, Loop.init)
    try container.register(SignedInMigrations.self) { (settings: Storage) in
      SignedInMigrations(settings: settings, user: nil)
    }
    #expect(container.validate().map(\.code) == [.cycle])
    #expect(throws: DeferredError.self) { try container.resolve(Loop.self) }
  }

  @Test func anOptionalDependencyOfEveryFormIsNilOrTheService() async throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(Storage.self) { Storage() }
    // More parameters than the fixed-arity forms take, a named optional, and an async factory.
    try container.register(String.self, name: "all") {
      (a: Storage, b: Network?, c: Storage, d: Storage, e: Storage, f: Storage, g: Network?) in
      "\(a.label) \(b == nil) \(c.label) \(d.label) \(e.label) \(f.label) \(g == nil)"
    }
    try container.register(
      .byType, dependencies: .byType, ServiceKey<Network?>(name: "remote"),
      factory: SignedInMigrations.init(settings:user:))
    try container.register(Int.self, name: "async") { (user: Network?) async in
      user == nil ? 0 : 1
    }
    #expect(container.validate().isEmpty)
    #expect(
      try container.resolve(ServiceKey<String>(name: "all")) == "disk true disk disk disk disk true"
    )
    #expect(try container.resolve(SignedInMigrations.self).user == nil)
    #expect(try await container.awaitService(ServiceKey<Int>(name: "async")) == 0)
    try container.register(Network.self, name: "remote") { Network(online: false) }
    #expect(try container.resolve(ServiceKey<Network?>(name: "remote"))?.online == false)
  }

  @Test func aChildThatRegistersTheWrappedTypeGivesItToTheParentsService() throws {
    let parent = Container(scheduler: ManualScheduler())
    try parent.register(Storage.self) { Storage() }
    try parent.register(SignedInMigrations.self, SignedInMigrations.init(settings:user:))
    #expect(try parent.resolve(SignedInMigrations.self).user == nil)
    let child = parent.makeChild()
    try child.register(Network.self) { Network() }
    #expect(try child.resolve(SignedInMigrations.self).user != nil)
  }

  @Test func anAbsentOptionalDependencyResolvesToNilAndValidates() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(WeatherScreen.self) { resolver in
      WeatherScreen(weather: try resolver.resolveIfRegistered(Storage.self, name: "weather"))
    }
    #expect(try container.resolve(WeatherScreen.self).weather == nil)
    #expect(container.validate().isEmpty)
    #expect(try container.resolveIfRegistered(Storage.self) == nil)
  }

  @Test func aRegisteredOptionalDependencyIsResolvedAndIsAnEdge() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(Storage.self, name: "weather") { Storage(label: "owm") }
    try container.register(WeatherScreen.self) { resolver in
      WeatherScreen(weather: try resolver.resolveIfRegistered(Storage.self, name: "weather"))
    }
    #expect(try container.resolve(WeatherScreen.self).weather?.label == "owm")
    #expect(try container.resolveIfRegistered(Storage.self, name: "weather")?.label == "owm")
    #expect(container.validate().isEmpty)
  }

  @Test func aRegisteredOptionalDependencyThatFailsStillThrows() throws {
    struct Broken: Error {}
    let container = Container(scheduler: ManualScheduler())
    try container.register(Storage.self) { () throws -> Storage in throw Broken() }
    #expect(throws: DeferredError.self) { try container.resolveIfRegistered(Storage.self) }
  }
}
