import Dispatch
import Swinject
import XCTest

// The Swinject code of Docs/Comparison.md ("Coming from Swinject"), compiled by the benchmarks'
// build; DocExamplesTests checks that the page quotes it. The code the page shows at the top
// level runs here in `swinjectApp()`.

extension ObjectScope {
  static let userSession = ObjectScope(
    storageFactory: PermanentStorage.init, description: "userSession")
}

final class AppAssembly: Assembly {
  func assemble(container: Container) {
    container.register(Storage.self) { _ in FileStorage() }.inObjectScope(.container)
    container.register(Network.self) { _ in HTTPNetwork() }.inObjectScope(.container)
    container.register(SyncService.self) { r in
      SyncService(storage: r.resolve(Storage.self)!, network: r.resolve(Network.self)!)
    }.inObjectScope(.container)
    container.register(AnalyticsService.self) { _ in AnalyticsService() }
      .inObjectScope(.container)
      .implements(Analytics.self, Logger.self)
    container.register(UserSession.self) { r in
      UserSession(storage: r.resolve(Storage.self)!)
    }.inObjectScope(.userSession)
  }
}

final class ProfileAssembly: Assembly {
  func assemble(container: Container) {
    container.register(ImageCache.self) { _ in ImageCache() }.inObjectScope(.weak)
    container.register(DetailModel.self) { (r, id: Int) in
      DetailModel(id: id, storage: r.resolve(Storage.self)!)
    }
  }
}

/// The page's top-level code.
func swinjectApp() {
  let container = Container()
  let assembler = Assembler([AppAssembly(), ProfileAssembly()], container: container)
  let resolver = container.synchronize()  // for use from several threads
  _ = assembler

  // After the first frame, warm up sync yourself. Resolver is not Sendable: in Swift 6 it
  // crosses to another queue only as nonisolated(unsafe).
  nonisolated(unsafe) let background = resolver
  DispatchQueue.global(qos: .utility).async { _ = background.resolve(SyncService.self) }

  let logger = resolver.resolve(Logger.self)!
  let model = resolver.resolve(DetailModel.self, argument: 42)!
  container.resetObjectScope(.userSession)  // logout
  _ = (logger, model)
}

// A test:
func testSyncUsesTheNetwork() {
  let container = Container()
  AppAssembly().assemble(container: container)
  container.register(Network.self) { _ in FakeNetwork() }  // replaces the registration
  let sync = container.resolve(SyncService.self)!
  XCTAssertEqual(sync.network.fetch("/inbox"), "fake /inbox")
}
