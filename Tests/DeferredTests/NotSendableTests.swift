import Foundation
import Testing

@testable import Deferred

// Types declared as a Swift 5-era app declares them: no `Sendable` anywhere.

/// A protocol an app's services conform to, not `Sendable`.
protocol LegacyStore: AnyObject {
  var saved: [String] { get }
  func save(_ value: String)
}

/// A class with mutable state behind its own lock: thread-safe by its own design.
final class LockedLegacyStore: LegacyStore {
  private let lock = NSLock()
  private var values: [String] = []
  var saved: [String] { lock.withLock { values } }
  func save(_ value: String) { lock.withLock { values.append(value) } }
}

/// A service that takes a store that is not `Sendable`, and a `Sendable` one.
final class LegacyFeed {
  let store: LegacyStore
  let storage: Storage
  init(store: LegacyStore, storage: Storage) {
    self.store = store
    self.storage = storage
  }
}

/// A presenter whose dependency is set after it is made (property injection).
final class LegacyPresenter {
  var store: LegacyStore?
  var defaults: UserDefaults?
}

/// Used only on the main thread, though its declaration does not say so.
final class LegacyCoordinator {
  let madeOnMain: Bool
  var screens: [String] = []
  init(store: LegacyStore) { madeOnMain = MainThread.isCurrent }
}

/// A service built off the main actor that needs the coordinator.
final class LegacyAnalytics {
  init(coordinator: LegacyCoordinator) {}
}

@Suite struct NotSendableTests {
  @Test func aServiceThatIsNotSendableIsRegisteredWithAPromiseAndResolved() throws {
    let container = Container(scheduler: ManualScheduler())
    let runs = Runs()
    try container.register(LegacyStore.self, promising: .threadSafe) {
      runs.tick("store")
      return LockedLegacyStore()
    }
    try container.register(Storage.self) { Storage() }
    try container.register(
      LegacyFeed.self, scope: .transient, promising: .threadSafe, LegacyFeed.init(store:storage:))
    let feed = try container.resolve(LegacyFeed.self)
    feed.store.save("a")
    let store: LegacyStore = try container.resolve()
    #expect(store === feed.store)
    #expect(store.saved == ["a"])
    #expect(try container.resolve(LegacyFeed.self) !== feed)
    #expect(runs["store"] == 1)
    #expect(container.validate().isEmpty)
  }

  @Test func userDefaultsIsRegisteredAsThreadSafe() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(UserDefaults.self, promising: .threadSafe) { .standard }
    #expect(try container.resolve(UserDefaults.self) === UserDefaults.standard)
  }

  @Test func theKeyedFormTakesNamedDependenciesThatAreNotSendable() throws {
    let container = Container(scheduler: ManualScheduler())
    let cache = ServiceKey<LegacyStore>(name: "cache")
    try container.register(cache, promising: .threadSafe) { LockedLegacyStore() }
    try container.register(Storage.self) { Storage() }
    try container.register(
      ServiceKey<LegacyFeed>(), promising: .threadSafe,
      dependencies: cache, ServiceKey<Storage>(), factory: LegacyFeed.init(store:storage:))
    let feed = try container.resolve(LegacyFeed.self)
    #expect(feed.store === (try container.resolve(cache)))
    #expect(container.validate().isEmpty)
  }

  @Test func aFactoryThatResolvesItselfInjectsProperties() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(LegacyStore.self, promising: .threadSafe) { LockedLegacyStore() }
    try container.register(UserDefaults.self, promising: .threadSafe) { .standard }
    try container.register(LegacyPresenter.self, scope: .transient, promising: .threadSafe) {
      resolver in
      let presenter = LegacyPresenter()
      presenter.store = try resolver.resolve(LegacyStore.self)
      presenter.defaults = try resolver.resolve(UserDefaults.self)
      return presenter
    }
    let presenter = try container.resolve(LegacyPresenter.self)
    #expect(presenter.store === (try container.resolve(LegacyStore.self)))
    #expect(presenter.defaults === UserDefaults.standard)
  }

  @MainActor @Test func aMainActorPromiseBuildsOnTheMainActor() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(LegacyStore.self, promising: .threadSafe) { LockedLegacyStore() }
    try container.register(
      LegacyCoordinator.self, promising: .mainActor, LegacyCoordinator.init(store:))
    let coordinator = try container.resolve(LegacyCoordinator.self)
    #expect(coordinator.madeOnMain)
    coordinator.screens.append("home")
    #expect(try container.resolve(LegacyCoordinator.self).screens == ["home"])
    #expect(container.validate().isEmpty)
  }

  @Test func validateRefusesAServiceBuiltOffTheMainActorThatTakesAMainActorOne() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(LegacyStore.self, promising: .threadSafe) { LockedLegacyStore() }
    try container.register(
      LegacyCoordinator.self, promising: .mainActor, LegacyCoordinator.init(store:))
    try container.register(
      LegacyAnalytics.self, promising: .threadSafe, LegacyAnalytics.init(coordinator:))
    let issues = container.validate()
    #expect(issues.count == 1)
    let issue = try #require(issues.first)
    #expect(issue.severity == .error)
    #expect(issue.code == .mainActorRequired)
    #expect(issue.message.contains("LegacyAnalytics"))
    #expect(issue.message.contains("promising: .mainActor"))
    // Registered on the main actor too, it is sound.
    try container.register(
      LegacyAnalytics.self, replacing: true, promising: .mainActor,
      LegacyAnalytics.init(coordinator:))
    #expect(container.validate().isEmpty)
  }
}
