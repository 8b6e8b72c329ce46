import Testing

@testable import Deferred

/// A screen whose weather service is optional.
final class WeatherScreen: Sendable {
  let weather: Storage?
  init(weather: Storage?) { self.weather = weather }
}

@Suite struct OptionalDependencyTests {
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
