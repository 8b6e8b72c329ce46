import Deferred
import DeferredHistory
import DeferredReports
import DeferredTesting
import Dispatch
import Foundation
import Testing

// Every block of Swift code in the DocC articles (Sources/Deferred/Deferred.docc) is quoted from
// this file, or from the sample app under Examples/: ArticleSnippetTests checks that each one
// is here, line for line. Edit the code here first, then the article.

extension DocExamples {
  @MainActor @Suite struct GettingStarted {
    @Test func registerLaunchAndReport() async throws {
      let container = Container()
      try container.register(Theme.self, priority: .critical) { Theme.load() }
      try container.register(Storage.self) { try Storage() }
      try container.register(Network.self, priority: .afterFirstFrame()) { Network() }
      try container.register(
        SyncService.self, priority: .afterFirstFrame(), SyncService.init(storage:network:))

      try container.launch()  // builds Theme, and only Theme
      let theme = try container.resolve(Theme.self)
      drawFirstFrame(theme: theme)
      try container.firstFrameDrawn()  // Storage, Network and SyncService: in the background

      try await container.fullyReady()
      print(container.launchReport().text())

      #expect(container.isFullyReady)
      let record = try #require(container.launchReport().builds.first { $0.service == "Theme" })
      #expect(record.trigger == .launch)
    }

    @Test func validateBeforeLaunching() throws {
      let container = Container()
      try container.register(
        SyncService.self, priority: .afterFirstFrame(), SyncService.init(storage:network:))

      let issues = container.validate()  // reads the declared dependencies; runs no factory
      // No registration for Storage, needed by SyncService → Storage. Register it with ...
      #expect(issues.map(\.code) == [.missingService, .missingService])

      #expect(container.validate().count == 2)
    }
  }

  @MainActor @Suite struct LaunchPhases {
    @Test func aLaunchStepByStep() throws {
      let scheduler = ManualScheduler()
      let container = Container(scheduler: scheduler, clock: scheduler.clock)
      try container.register(Theme.self, priority: .critical) { Theme.load() }
      try container.register(Catalog.self, priority: .afterFirstFrame(.userInitiated)) {
        Catalog()
      }
      try container.register(Config.self, priority: .idle(after: .seconds(10))) { Config() }
      try container.register(Storage.self) { try Storage() }  // onDemand: built when resolved

      try container.launch()  // builds Theme
      try container.firstFrameDrawn()  // queues Catalog
      #expect(scheduler.queued == ["build Catalog"])
      scheduler.runAll()
      scheduler.clock.advance(by: .seconds(10))  // Config's turn
      scheduler.runAll()
      #expect(container.isFullyReady)
    }

    @Test func aPriorityThatDependsOnTheLaunch() throws {
      let scheduler = ManualScheduler()
      let container = Container(scheduler: scheduler, clock: scheduler.clock)
      try container.register(
        Catalog.self, priority: .when(.restoringState, .critical, otherwise: .afterFirstFrame())
      ) { Catalog() }

      try container.launch([.restoringState])  // restoring a screen that shows the catalog

      #expect(container.launchReport().builds.map(\.service) == ["Catalog"])
    }

    @Test func workBeforeTheServiceIsReady() throws {
      let scheduler = ManualScheduler()
      let container = Container(scheduler: scheduler, clock: scheduler.clock)
      try container.register(Storage.self) { try Storage() }
      try container.register(Network.self) { Network() }
      try container.register(
        SyncService.self, priority: .afterFirstFrame(), SyncService.init(storage:network:))
      let syncQueue = DispatchQueue(label: "sync")
      let edit = "2 + 2"

      // The user typed before sync was built: the edit waits for it, and is not lost.
      try container.whenReady(SyncService.self, on: syncQueue) { sync in sync.push(edit) }

      try container.launch()
      try container.firstFrameDrawn()
      #expect(scheduler.runAll() == 1)
    }
  }

  @MainActor @Suite struct MainActorServices {
    @Test func aMainActorViewModel() async throws {
      let scheduler = ManualScheduler()
      let container = Container(scheduler: scheduler, clock: scheduler.clock)
      try container.register(Calculator.self, priority: .afterFirstFrame()) { Calculator() }
      try container.registerMainActor(
        KeypadModel.self, priority: .afterFirstFrame(), KeypadModel.init(calculator:))

      try container.launch()
      try container.firstFrameDrawn()
      scheduler.runAll()  // Calculator, on a background queue
      #expect(scheduler.queuedOnMain == ["build KeypadModel on main"])
      #expect(scheduler.runMainNext())  // KeypadModel, in its turn of the main queue

      let keypad = try await container.awaitService(KeypadModel.self)
      #expect(keypad.calculator === (try container.resolve(Calculator.self)))
    }
  }

  @Suite struct Reports {
    @MainActor @Test func renderingAReport() async throws {
      let container = Container()
      try container.register(Theme.self, priority: .critical) { Theme.load() }
      try container.register(Catalog.self, priority: .afterFirstFrame()) { Catalog() }
      try container.launch()
      try container.firstFrameDrawn()
      try await container.fullyReady()

      let report = container.launchReport()
      print(report.text())  // milestones, then every build: when, where, how long
      let timeline = report.svg()  // the picture below
      let trace = report.chromeTrace()  // open in Perfetto or chrome://tracing

      let budget = LaunchBudget(criticalPhase: .milliseconds(400), mainThreadWaits: false)
      for violation in report.check(budget) {
        print(violation)
      }

      #expect(timeline.hasPrefix("<svg"))
      #expect(trace.contains("Theme"))
      #expect(report.check(budget).isEmpty)
    }
  }

  @Suite struct History {
    @MainActor @Test func aLaunchThatLearnsFromThoseBefore() async throws {
      let cachesDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("history-\(UInt64.random(in: 0...UInt64.max))").path
      try FileManager.default.createDirectory(
        atPath: cachesDirectory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: cachesDirectory) }

      let history = LaunchHistory(directory: cachesDirectory)
      let container = Container(history: history)
      try container.register(Catalog.self, priority: .afterFirstFrame()) { Catalog() }
      try container.launch()
      try container.firstFrameDrawn()
      try await container.fullyReady()

      let report = container.launchReport()
      for regression in report.hazards where regression.kind == .regression {
        print(regression)  // a service slower than its median over the launches before
      }
      for item in report.advice {
        print(item)  // what to change, and what it would save
      }

      #expect(report.advice.map(\.kind) == [.makeOnDemand])
    }

    @Test func predictingADeferredLaunch() throws {
      let scheduler = ManualScheduler()
      let container = Container(scheduler: scheduler, clock: scheduler.clock)
      try container.register(Catalog.self, priority: .critical) {
        scheduler.clock.advance(by: .milliseconds(120))
        return Catalog()
      }
      try container.register(Theme.self, priority: .critical) { Theme.load() }
      try container.launch()
      _ = try container.resolve(Theme.self)
      scheduler.clock.advance(by: .milliseconds(5))
      try container.firstFrameDrawn()
      _ = try container.resolve(Catalog.self)  // used, but only after the first frame

      let eager = container.launchReport()
      if let prediction = eager.predictDeferred() {  // applies eager.advice
        print(prediction.explanation.joined(separator: "\n"))
      }

      let prediction = try #require(eager.predictDeferred())

      #expect(prediction.moved == ["Catalog"])
      #expect(prediction.firstFrame < .milliseconds(120))
    }
  }

  @Suite struct ComingFromOtherContainers {
    @Test func theSameAppInDeferred() throws {
      let container = Container()
      // Swinject: container.register(Storage.self) { _ in Storage() }.inObjectScope(.container)
      try container.register(Storage.self) { try Storage() }
      // Factory: var network: Factory<Network> { self { Network() }.singleton }
      try container.register(Network.self) { Network() }
      // Either: a factory that resolves its dependencies from the resolver
      try container.register(SyncService.self) { resolver in
        SyncService(storage: try resolver.resolve(), network: try resolver.resolve())
      }

      let sync = try container.resolve(SyncService.self)
      #expect(sync.network.online)
    }

    @Test func factoryScopes() throws {
      let container = Container(scheduler: ManualScheduler())
      // Factory .singleton and .cached: one per container, the default
      try container.register(Storage.self) { try Storage() }
      // Factory .shared: kept while something holds it (a class: checked by the compiler)
      try container.register(ImageCache.self, scope: .weak) { ImageCache() }
      // Factory .shared, for a protocol bound to classes: checked when registered
      try container.register((any Editing).self, scope: .weakObject) { Editor() }
      // Factory .unique (its default), Swinject .graph (its default): one per resolve
      try container.register(Draft.self, scope: .transient) { Draft() }

      let cache = try container.resolve(ImageCache.self)
      #expect(try container.resolve(ImageCache.self) === cache)
      #expect(try container.resolve(Draft.self) !== (try container.resolve(Draft.self)))
    }

    @Test func contextsAreChildContainers() throws {
      let app = Container(scheduler: ManualScheduler())
      try app.register(Network.self) { Network() }
      try app.register(Storage.self) { try Storage() }
      try app.register(SyncService.self, SyncService.init(storage:network:))
      // Factory: network.onPreview { Network(online: false) }; a preview's own container
      let preview = app.makeChild()
      try preview.register(Network.self) { Network(online: false) }

      #expect(!(try preview.resolve(SyncService.self).network.online))
      #expect(try app.resolve(SyncService.self).network.online)
    }
  }
}

/// The app's composition root, as the testing article shows it.
enum AppContainer {
  static let shared: Container = {
    let container = Container()
    do {
      try container.register(DocExamples.Storage.self) { try DocExamples.Storage() }
      try container.register(DocExamples.Network.self) { DocExamples.Network() }
      try container.register(
        DocExamples.SyncService.self, DocExamples.SyncService.init(storage:network:))
    } catch {
      preconditionFailure("the app's registrations are valid: \(error)")
    }
    return container
  }()
}

extension DocExamples {
  @Suite struct TestingByHand {
    @Test func aChildContainerWithADouble() throws {
      let container = AppContainer.shared.makeChild()
      try container.register(Network.self) { Network(online: false) }

      let sync = try container.resolve(SyncService.self)  // built with the offline network
      #expect(!sync.network.online)
      #expect(try AppContainer.shared.resolve(SyncService.self).network.online)
    }
  }

  // The traits exist from Swift 6.1 on (`TestScoping`).
  #if compiler(>=6.1)
    @Suite(.deferred(from: AppContainer.shared))
    struct SyncTests {
      @Test(.deferred { try $0.register(Network.self) { Network(online: false) } })
      func queuesEditsOffline() throws {
        let sync = try Container.test.resolve(SyncService.self)
        #expect(!sync.network.online)
      }

      @Test func usesTheRealNetworkElsewhere() throws {
        let sync = try Container.test.resolve(SyncService.self)
        #expect(sync.network.online)
      }
    }
  #endif

  @Suite struct WithoutTraits {
    @Test func queuesEditsOffline() async throws {
      try await Container.withTestContainer(from: AppContainer.shared) {
        try $0.register(Network.self) { Network(online: false) }
      } body: { container in
        let sync = try container.resolve(SyncService.self)
        #expect(!sync.network.online)
      }
    }
  }

  // The traits exist from Swift 6.1 on (`TestScoping`).
  #if compiler(>=6.1)
    @Suite(.deferred(from: AppContainer.shared))
    struct OffTheTestsTask {
      @Test(.deferred { try $0.register(Network.self) { Network(online: false) } })
      func passesTheContainerToAQueue() async throws {
        let container = Container.test  // read on the test's task
        let online = await withCheckedContinuation { done in
          DispatchQueue.global().async {
            // Container.test would not reach here: this closure has the container itself.
            done.resume(returning: try? container.resolve(SyncService.self).network.online)
          }
        }
        #expect(online == false)
      }
    }
  #endif
}

extension DocExamples {
  @MainActor @Suite struct NotSendable {
    @Test func registerWithAPromise() throws {
      let container = Container(scheduler: ManualScheduler())
      try container.register(UserDefaults.self, promising: .threadSafe) { .standard }
      try container.register(Store.self, promising: .threadSafe, FileStore.init(defaults:))
      try container.register(
        ProfileCoordinator.self, promising: .mainActor, ProfileCoordinator.init(store:))

      let store: Store = try container.resolve()
      let coordinator = try container.resolve(ProfileCoordinator.self)
      coordinator.screens.append("profile")

      let shared = coordinator.store === store
      #expect(shared)
      #expect(container.validate().isEmpty)
    }

    @Test func propertyInjectionAndAnOptionalDependency() throws {
      let container = Container(scheduler: ManualScheduler())
      try container.register(UserDefaults.self, promising: .threadSafe) { .standard }
      try container.register(Store.self, promising: .threadSafe, FileStore.init(defaults:))
      try container.register(SettingsPresenter.self, scope: .transient, promising: .mainActor) {
        resolver in
        let presenter = SettingsPresenter()
        presenter.store = try resolver.resolve(Store.self)
        presenter.weather = try resolver.resolveIfRegistered(WeatherAPI.self)
        return presenter
      }

      let presenter = try container.resolve(SettingsPresenter.self)
      let (hasStore, hasWeather) = (presenter.store != nil, presenter.weather != nil)
      #expect(hasStore && !hasWeather)
      #expect(container.validate().isEmpty)
    }

    @Test func anOptionalDependencyInTheInitializer() throws {
      let container = Container(scheduler: ManualScheduler())
      try container.register(UserDefaults.self, promising: .threadSafe) { .standard }
      try container.register(Store.self, promising: .threadSafe, FileStore.init(defaults:))
      // Swinject: Reminders(store: r.resolve(Store.self)!, weather: r.resolve(WeatherAPI.self))
      try container.register(Reminders.self, promising: .threadSafe, Reminders.init(store:weather:))

      let reminders = try container.resolve(Reminders.self)  // no WeatherAPI registered: nil
      #expect(reminders.weather == nil)
      #expect(container.validate().isEmpty)
    }

    @Test func aServiceBuiltOffTheMainActorCannotTakeAMainActorOne() throws {
      let container = Container(scheduler: ManualScheduler())
      try container.register(UserDefaults.self, promising: .threadSafe) { .standard }
      try container.register(Store.self, promising: .threadSafe, FileStore.init(defaults:))
      try container.register(
        ProfileCoordinator.self, promising: .mainActor, ProfileCoordinator.init(store:))
      try container.register(SettingsPresenter.self, promising: .threadSafe) { resolver in
        let presenter = SettingsPresenter()
        presenter.store = try resolver.resolve(ProfileCoordinator.self).store
        return presenter
      }
      _ = try container.resolve(SettingsPresenter.self)

      let issues = container.validate()
      // ProfileCoordinator is a main-actor service: it is registered as used only on the main
      // actor, and SettingsPresenter, built off the main actor, takes it; ...
      #expect(issues.map(\.code) == [.mainActorRequired])
    }
  }
}
