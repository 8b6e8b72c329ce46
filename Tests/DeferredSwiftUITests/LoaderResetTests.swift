import Deferred
import Observation
import Testing

@testable import DeferredSwiftUI

extension Scope {
  static let userSession = Scope.named("userSession")
}

/// A signed-in user's session, numbered by the factory that made it.
final class UserSession: Sendable {
  let number: Int
  init(_ number: Int) { self.number = number }
}

/// Numbers what a factory makes, from any thread.
final class Numbers: Sendable {
  private let builds = Builds()
  func next() -> Int {
    builds.tick()
    return builds.total
  }
}

/// Suspends until `condition` holds, letting the loaders' tasks and hops run; fails the test
/// after many turns rather than hang.
@MainActor
func eventually(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation)
  async
{
  for _ in 0..<10_000 {
    if condition() { return }
    await Task.yield()
  }
  Issue.record("the condition never held", sourceLocation: sourceLocation)
}

@MainActor @Suite struct LoaderResetTests {
  /// The app's container with a session-scoped service.
  func app(_ numbers: Numbers) throws -> Container {
    let app = Container()
    try app.register(UserSession.self, scope: .userSession) { UserSession(numbers.next()) }
    return app
  }

  @Test func aLoaderFollowsAResetToTheNewSession() async throws {
    let app = try app(Numbers())
    let loader = ServiceLoader(UserSession.self, in: app, policy: .buildNow)
    let first = try await loader.value()
    #expect(first.number == 1)
    #expect(app.reset(.userSession) == ["UserSession"])
    await eventually { loader.service !== first }
    let second = try await loader.value()
    #expect(second.number == 2)
    #expect(second === (try app.resolve(UserSession.self)))
    #expect(loader.service === second)
  }

  @Test func aLoaderThatWaitedForItsTurnFollowsAResetToo() async throws {
    let scheduler = ManualScheduler()
    let app = Container(scheduler: scheduler, clock: scheduler.clock)
    let numbers = Numbers()
    try app.register(UserSession.self, scope: .userSession, priority: .afterFirstFrame()) {
      UserSession(numbers.next())
    }
    let loader = ServiceLoader(UserSession.self, in: app)
    loader.start()
    try app.launch()
    try app.firstFrameDrawn()
    scheduler.runAll()
    let first = try await loader.value()
    app.reset(.userSession)
    // The turn has passed (a reset schedules nothing): the loader builds the next one.
    await eventually { loader.service.map { $0 !== first } ?? false }
    #expect(loader.service === (try app.resolve(UserSession.self)))
    #expect(numbers.next() == 3)
  }

  @Test func aResetOfAnotherScopeLeavesTheLoaderAlone() async throws {
    let app = try app(Numbers())
    try app.register(Catalog.self, scope: .named("other")) { Catalog() }
    _ = try app.resolve(Catalog.self)
    let loader = ServiceLoader(UserSession.self, in: app, policy: .buildNow)
    let first = try await loader.value()
    #expect(app.reset(.named("other")) == ["Catalog"])
    await settle()
    #expect(loader.service === first)
  }

  @Test func aReleasedLoaderStopsFollowing() async throws {
    let app = try app(Numbers())
    var loader: ServiceLoader<UserSession>? = ServiceLoader(in: app, policy: .buildNow)
    _ = try await loader?.value()
    weak let released = loader
    loader = nil
    // Neither the container's reset observers nor a queued delivery keep it.
    #expect(released == nil)
    #expect(app.reset(.userSession) == ["UserSession"])
  }

  @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
  @Test func theObservableLoaderTellsItsObserversAndFollowsAReset() async throws {
    let app = try app(Numbers())
    let loader = ObservableServiceLoader(UserSession.self, in: app, policy: .buildNow)
    let changed = Flag()
    withObservationTracking {
      _ = loader.state
    } onChange: {
      changed.set()
    }
    let first = try await loader.value()
    #expect(changed.isSet)
    #expect(loader.service === first)
    app.reset(.userSession)
    await eventually { loader.service.map { $0 !== first } ?? false }
    #expect(loader.service?.number == 2)
  }

  @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
  @Test func theObservableLoaderWaitsForTheLaunchAndBuildsNothing() async throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    let builds = Builds()
    try container.register(Catalog.self, priority: .afterFirstFrame()) {
      builds.tick()
      return Catalog()
    }
    let loader = ObservableServiceLoader(Catalog.self, in: container)
    loader.start()
    await settle()
    #expect(loader.service == nil && builds.total == 0)
    try container.launch()
    try container.firstFrameDrawn()
    #expect(scheduler.runAll() == 1)
    #expect(try await loader.value() === (try container.resolve(Catalog.self)))
    #expect(builds.total == 1)
  }
}

/// Set once, from any thread.
final class Flag: Sendable {
  private let builds = Builds()
  func set() { builds.tick() }
  var isSet: Bool { builds.total > 0 }
}
