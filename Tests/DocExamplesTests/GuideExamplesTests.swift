import Deferred
import Dispatch
import Testing

// The Swift blocks of README.md and Docs/AppIntegration.md are quoted from this file
// (ArticleSnippetTests checks each, paragraph by paragraph): edit the code here first, then the
// page. Each page's names live in a namespace of their own, which the pages do not show.

/// The stand-ins the README's and the integration guide's code uses.
enum Guides {
  struct Theme: Sendable {
    static func load() -> Theme { Theme() }
  }

  protocol Storage: Sendable {}
  final class FileStorage: Storage {
    init() throws {}
  }

  protocol Network: Sendable {}
  final class URLSessionNetwork: Network {}

  final class SyncService: Sendable {
    let storage: Storage
    let network: Network
    /// Where pushed edits go, for a test to read.
    let pushes: AsyncStream<String>.Continuation?
    init(storage: Storage, network: Network, pushes: AsyncStream<String>.Continuation?) {
      self.storage = storage
      self.network = network
      self.pushes = pushes
    }
    convenience init(storage: Storage, network: Network) {
      self.init(storage: storage, network: network, pushes: nil)
    }
    static func connect(storage: Storage, network: Network) async throws -> SyncService {
      SyncService(storage: storage, network: network)
    }
    func push(_ edit: String) { pushes?.yield(edit) }
  }

  final class Config: Sendable {}

  @MainActor final class KeypadModel {
    let sync: SyncService
    init(sync: SyncService) { self.sync = sync }
  }

  final class DocumentStore: Sendable {
    init(storage: Storage) {}
  }

  final class RemoteConfig: Sendable {
    static func refresh() -> RemoteConfig { RemoteConfig() }
  }

  final class ConsentStore: Sendable {}
  @MainActor final class Analytics {}
  @MainActor enum AnalyticsSDK {
    static func start(apiKey: String, consent: ConsentStore) -> Analytics {
      dispatchPrecondition(condition: .onQueue(.main))
      return Analytics()
    }
  }
  enum Secrets {
    static let analytics = "key"
  }

  /// What the app would draw its first frame with.
  static func drawFirstFrame(theme: Theme) {}
}

// MARK: - README.md, Quick Start

extension Guides {
  @MainActor @Suite struct Readme {
    @Test func quickStart() async throws {
      let container = Container()
      try container.register(Theme.self, priority: .critical) { Theme.load() }
      try container.register(Storage.self) { try FileStorage() }  // on first use
      try container.register(Network.self) { URLSessionNetwork() }  // on first use
      try container.register(
        SyncService.self, priority: .afterFirstFrame(),  // after the first frame
        SyncService.init(storage:network:))
      try container.register(Config.self, priority: .idle(after: .seconds(10))) { Config() }
      // A @MainActor view model: built on the main actor, after the first frame, one per turn
      // of the main queue.
      try container.registerMainActor(
        KeypadModel.self, priority: .afterFirstFrame(), KeypadModel.init(sync:))

      try container.launch()  // on the main actor: builds Theme
      drawFirstFrame(theme: try container.resolve(Theme.self))
      try container.firstFrameDrawn()  // the rest is built in the background, in dependency order

      #expect(container.launchReport().builds.map(\.service).first == "Theme")
      container.appIsIdle()  // the idle Config now, not in ten seconds
      try await container.fullyReady()
      let built = Set(container.launchReport().builds.map(\.service))
      #expect(built == ["Theme", "Storage", "Network", "SyncService", "Config", "KeypadModel"])
    }
  }
}

// MARK: - Docs/AppIntegration.md

extension Guides {
  enum AppServices {
    static func makeContainer() throws -> Container {
      let container = Container()
      try container.register(Theme.self, priority: .critical) { Theme.load() }
      try container.register(Storage.self) { try FileStorage() }  // on first use
      try container.register(Network.self) { URLSessionNetwork() }
      try container.register(SyncService.self, priority: .afterFirstFrame()) {
        (storage: Storage, network: Network) async throws in
        try await SyncService.connect(storage: storage, network: network)
      }
      try container.register(
        DocumentStore.self,
        priority: .when(.restoringState, .critical, otherwise: .afterFirstFrame(.userInitiated)),
        DocumentStore.init(storage:))
      try container.register(RemoteConfig.self, priority: .idle(after: .seconds(10))) {
        RemoteConfig.refresh()
      }
      return container
    }
  }

  @MainActor @Suite struct AppIntegration {
    @Test func servicesAreWired() throws {
      let issues = try AppServices.makeContainer().validate()
      #expect(issues.filter { $0.severity == .error }.isEmpty, "\(issues)")
    }

    // The warnings too, each one known: restoring state makes DocumentStore critical, and
    // Storage, which it needs, is then built before the first frame as well.
    @Test func theWarningsAreKnown() throws {
      let warnings = try AppServices.makeContainer().validate().filter { $0.severity == .warning }
      #expect(warnings.map(\.code) == [.criticalNeedsDeferred])
      #expect(warnings.map(\.service) == ["Storage"])
    }

    @Test func aRestoringLaunchBuildsTheDocumentsFirst() throws {
      let container = try AppServices.makeContainer()
      try container.launch([.restoringState])
      let atLaunch = container.launchReport().builds.filter { $0.trigger == .launch }
      #expect(Set(atLaunch.map(\.service)) == ["Theme", "DocumentStore", "Storage"])
    }

    @Test func anSDKStartsOnTheMainThreadAfterTheFirstFrame() throws {
      let scheduler = ManualScheduler()
      let container = Container(scheduler: scheduler, clock: scheduler.clock)
      try container.register(ConsentStore.self, priority: .afterFirstFrame()) { ConsentStore() }
      try container.registerMainActor(Analytics.self, priority: .afterFirstFrame()) {
        (consent: ConsentStore) in
        AnalyticsSDK.start(apiKey: Secrets.analytics, consent: consent)  // demands the main thread
      }
      try container.launch()
      try container.firstFrameDrawn()
      #expect(scheduler.queuedOnMain.isEmpty)  // ConsentStore first, in the background
      scheduler.runAll()
      #expect(scheduler.queuedOnMain == ["build Analytics on main"])
      scheduler.runMainNext()  // one turn of the main queue
      #expect(container.isFullyReady)
    }

    @Test func editsBeforeSyncIsBuiltAreDelivered() async throws {
      let scheduler = ManualScheduler()
      let container = Container(scheduler: scheduler, clock: scheduler.clock)
      let (pushed, pushes) = AsyncStream.makeStream(of: String.self)
      try container.register(SyncService.self, priority: .afterFirstFrame()) {
        SyncService(storage: try FileStorage(), network: URLSessionNetwork(), pushes: pushes)
      }
      let syncQueue = DispatchQueue(label: "sync")
      let edit = "2 + 2"
      try container.whenReady(SyncService.self, on: syncQueue) { sync in sync.push(edit) }
      try container.launch()
      try container.firstFrameDrawn()
      scheduler.runAll()  // builds SyncService: the edit is delivered on syncQueue
      var edits = pushed.makeAsyncIterator()
      #expect(await edits.next() == "2 + 2")
    }
  }
}
