import Deferred
import Testing

/// The small app of Docs/Comparison.md, wired with Deferred exactly as the guide shows it, so
/// that the guide's code compiles and does what the guide says. The guide shows the code inside
/// `extension ComparisonGuide { ... }` without that namespace, which is here only to keep the
/// app's names (`Storage`, `Network`, ...) apart from the other tests' types.
enum ComparisonGuide {}

// MARK: - The app's types (the same under every library)

extension ComparisonGuide {
  protocol Storage: Sendable {
    func read(_ key: String) -> String?
  }

  final class FileStorage: Storage {
    func read(_ key: String) -> String? { key == "user" ? "ada" : nil }
  }

  protocol Network: Sendable {
    func fetch(_ path: String) -> String
  }

  final class HTTPNetwork: Network {
    func fetch(_ path: String) -> String { "live \(path)" }
  }

  final class SyncService: Sendable {
    let storage: Storage
    let network: Network
    init(storage: Storage, network: Network) {
      self.storage = storage
      self.network = network
    }
  }

  protocol Analytics: Sendable {
    func track(_ event: String)
  }

  protocol Logger: Sendable {
    func log(_ message: String)
  }

  /// One object behind two protocols.
  final class AnalyticsService: Analytics, Logger {
    func track(_ event: String) {}
    func log(_ message: String) {}
  }

  final class UserSession: Sendable {
    let user: String
    init(storage: Storage) { user = storage.read("user") ?? "guest" }
  }

  final class ImageCache: Sendable {}

  final class DetailModel: Sendable {
    let id: Int
    let storage: Storage
    init(id: Int, storage: Storage) {
      self.id = id
      self.storage = storage
    }
  }
}

// MARK: - Deferred: the wiring

extension Scope {
  /// The signed-in user's scope: dropped at logout.
  static let userSession = Scope.named("userSession")
}

extension ComparisonGuide {
  /// The profile feature's services, registered by the feature itself.
  struct ProfileFeature: Module {
    static let detailModel = FactoryKey<Int, DetailModel>()

    func register(in container: Container) throws(DeferredError) {
      try container.register(ImageCache.self, scope: .weak) { ImageCache() }
      try container.register(DetailModel.self, argument: Int.self) {
        (id: Int, storage: Storage) in DetailModel(id: id, storage: storage)
      }
    }
  }

  enum AppServices {
    static func makeContainer(
      scheduler: any LaunchScheduler = DispatchScheduler(),
      clock: any LaunchClock = MonotonicClock()
    ) throws -> Container {
      let container = Container(scheduler: scheduler, clock: clock)
      try container.register(Storage.self) { FileStorage() }
      try container.register(Network.self) { HTTPNetwork() }
      try container.register(
        SyncService.self, priority: .afterFirstFrame(), SyncService.init(storage:network:))
      let analytics = try container.register(AnalyticsService.self) { AnalyticsService() }
      try container.forward(analytics, as: Analytics.self) { $0 }
      try container.forward(analytics, as: Logger.self) { $0 }
      try container.register(
        UserSession.self, scope: .userSession, UserSession.init(storage:))
      try container.install(ProfileFeature())
      return container
    }
  }

  /// The test double.
  final class FakeNetwork: Network {
    func fetch(_ path: String) -> String { "fake \(path)" }
  }
}

// MARK: - The guide's claims

extension ComparisonGuide {
  @Suite struct ComparisonGuideTests {
    @Test func theWiringIsCompleteAndTheFeatureIsNamed() throws {
      let container = try AppServices.makeContainer()
      #expect(container.validate().isEmpty)  // every dependency registered, no cycle
      #expect(container.module(of: ServiceKey<ImageCache>()) == "ProfileFeature")
    }

    @Test func usingIt() throws {
      let container = try AppServices.makeContainer()
      try container.launch()  // builds the critical services: none here
      // ... the first screen is drawn ...
      try container.firstFrameDrawn()  // SyncService is built in the background now

      let logger = try container.resolve(Logger.self)  // the same object as Analytics
      let model = try container.resolve(ProfileFeature.detailModel, argument: 42)
      let cache = try container.resolve(ImageCache.self)  // shared while someone holds it

      let analytics = try container.resolve(Analytics.self)
      #expect(ObjectIdentifier(logger as AnyObject) == ObjectIdentifier(analytics as AnyObject))
      #expect(model.id == 42)
      #expect(try container.resolve(ImageCache.self) === cache)
      let session = try container.resolve(UserSession.self)

      container.reset(.userSession)  // logout: the next resolve makes a new UserSession

      #expect(try container.resolve(UserSession.self) !== session)
    }

    @Test func syncIsBuiltInTheBackgroundAfterTheFirstFrame() throws {
      let scheduler = ManualScheduler()
      let container = try AppServices.makeContainer(scheduler: scheduler, clock: scheduler.clock)
      try container.launch()
      #expect(scheduler.queued.isEmpty)  // nothing deferred before the first frame
      try container.firstFrameDrawn()  // SyncService is built in the background now
      #expect(scheduler.queued == ["build SyncService"])
      scheduler.runAll()
      #expect(container.isFullyReady)
    }

    @Test func syncIsBuiltOnceOnAWorker() throws {
      let scheduler = ManualScheduler()
      let container = try AppServices.makeContainer(scheduler: scheduler, clock: scheduler.clock)
      try container.launch()
      try container.firstFrameDrawn()
      scheduler.runAll()
      let sync = try container.resolve(SyncService.self)  // built already: no new build
      #expect(sync.network is HTTPNetwork && sync.storage is FileStorage)
      let builds = container.launchReport().builds.filter {
        $0.service.hasSuffix("SyncService")
      }
      #expect(builds.count == 1)
      #expect(builds.first?.trigger == .scheduled && builds.first?.isMainThread == false)
    }

    @Test func oneAnalyticsServiceAnswersAsBothProtocols() throws {
      let container = try AppServices.makeContainer()
      let analytics = try container.resolve(Analytics.self)
      let logger = try container.resolve(Logger.self)
      let service = ObjectIdentifier(try container.resolve(AnalyticsService.self))
      // (ObjectIdentifier rather than `===` between an existential and a class: that
      // comparison inside #expect crashes the Swift 6.3.1 compiler.)
      #expect(ObjectIdentifier(analytics as AnyObject) == service)
      #expect(ObjectIdentifier(logger as AnyObject) == service)
    }

    @Test func theSessionIsKeptUntilLogout() throws {
      let container = try AppServices.makeContainer()
      let storage = try container.resolve(Storage.self) as AnyObject
      let session = try container.resolve(UserSession.self)
      #expect(try container.resolve(UserSession.self) === session)
      #expect(session.user == "ada")

      #expect(container.reset(.userSession) == ["UserSession"])  // logout

      let next = try container.resolve(UserSession.self)
      #expect(next !== session)
      #expect(try container.resolve(UserSession.self) === next)
      // What the session does not depend on stays.
      #expect(try container.resolve(Storage.self) as AnyObject === storage)
    }

    @Test func theImageCacheIsSharedWhileHeld() throws {
      let container = try AppServices.makeContainer()
      weak var released: ImageCache?
      do {
        let cache = try container.resolve(ImageCache.self)
        #expect(try container.resolve(ImageCache.self) === cache)  // shared while held
        released = cache
      }
      #expect(released == nil)  // the container held it weakly
      let again = try container.resolve(ImageCache.self)  // a new one
      #expect(try container.resolve(ImageCache.self) === again)
      let builds = container.launchReport().builds.filter { $0.service.hasSuffix("ImageCache") }
      #expect(builds.count == 2)
    }

    @Test func theDetailModelIsMadeFromItsArgument() throws {
      let container = try AppServices.makeContainer()
      let model = try container.resolve(ProfileFeature.detailModel, argument: 42)
      #expect(model.id == 42)
      #expect(model.storage as AnyObject === (try container.resolve(Storage.self)) as AnyObject)
      let other = try container.resolve(ProfileFeature.detailModel, argument: 7)
      #expect(other.id == 7 && other !== model)  // made anew on every resolve
    }

    @Test func aTestSwapsTheNetworkForADouble() throws {
      let app = try AppServices.makeContainer()
      let live = try app.resolve(SyncService.self)  // built with HTTPNetwork

      let container = app.makeChild()
      try container.register(Network.self) { FakeNetwork() }
      let sync = try container.resolve(SyncService.self)  // built anew, with FakeNetwork
      #expect(sync.network.fetch("/inbox") == "fake /inbox")

      #expect(sync !== live)
      #expect(sync.storage as AnyObject === live.storage as AnyObject)  // shared
      #expect(try app.resolve(SyncService.self) === live)  // the app's is untouched
    }
  }
}

// MARK: - Docs/Testing.md, with the same app

extension ComparisonGuide {
  /// A view model of the app's, isolated to the main actor.
  @MainActor final class InboxModel {
    let sync: SyncService
    init(sync: SyncService) { self.sync = sync }
  }

  @Suite struct TestingGuideTests {
    @MainActor @Test func aMainActorModelGetsItsOwnTurn() throws {
      let scheduler = ManualScheduler()
      let container = try AppServices.makeContainer(scheduler: scheduler, clock: scheduler.clock)
      try container.registerMainActor(
        InboxModel.self, priority: .afterFirstFrame(), InboxModel.init(sync:))
      try container.launch()  // on the main actor: critical main-actor services
      try container.firstFrameDrawn()
      scheduler.runAll()  // the background builds the model needs
      #expect(scheduler.queuedOnMain == ["build InboxModel on main"])
      scheduler.runMainNext()  // one build, one turn of the main queue
      #expect(container.isFullyReady)
    }

    @Test func syncKeepsEditsOffline() throws {
      let app = try AppServices.makeContainer()
      let container = app.makeChild()
      try container.register(Network.self) { FakeNetwork() }
      let sync = try container.resolve(SyncService.self)  // built anew, with FakeNetwork
      #expect(sync.network.fetch("/inbox") == "fake /inbox")
    }

    @Test func syncWaitsForTheFirstFrame() throws {
      let scheduler = ManualScheduler()
      let container = try AppServices.makeContainer(
        scheduler: scheduler, clock: scheduler.clock)
      try container.launch()
      #expect(scheduler.queued.isEmpty)  // nothing deferred runs before the first frame
      try container.firstFrameDrawn()
      #expect(scheduler.queued == ["build SyncService"])
      scheduler.runNext()  // Storage and Network, which it needs, then SyncService
      #expect(scheduler.queued.isEmpty)
      #expect(container.isFullyReady)
      let built = container.launchReport().builds.map(\.service)
      #expect(built == ["Storage", "Network", "SyncService"])
    }
  }
}
