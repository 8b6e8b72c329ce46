import Deferred
import Foundation

// The app's Swinject assemblies, migrated: each `Assembly` is a `Module`; Swinject's default
// scope (`.graph`) is `.transient`, `.inObjectScope(.container)` a singleton. No service's
// declaration changed: each registration states the promise its type's declaration does not.

/// Settings, identifiers and the stores: `UserDefaults` and the two persistence layers.
struct PersistenceAssembly: Module {
  func register(in container: Container) throws(DeferredError) {
    // `UserDefaults` is documented as thread-safe; its `Sendable` conformance is unavailable.
    try container.register(UserDefaults.self, promising: .threadSafe) { .standard }
    try container.register(
      RuuviLocalFactory.self, scope: .transient, promising: .threadSafe,
      RuuviLocalFactoryUserDefaults.init(defaults:))
    try container.register(RuuviLocalSettings.self, promising: .threadSafe) {
      (factory: RuuviLocalFactory) in factory.createLocalSettings()
    }
    try container.register(RuuviLocalIDs.self, promising: .threadSafe) {
      (factory: RuuviLocalFactory) in factory.createLocalIDs()
    }
    try container.register(RuuviLocalConnections.self, promising: .threadSafe) {
      (factory: RuuviLocalFactory) in factory.createLocalConnections()
    }
    try container.register(RuuviLocalImages.self, promising: .threadSafe) {
      (factory: RuuviLocalFactory) in factory.createLocalImages()
    }
    try container.register(
      SQLiteContextFactory.self, scope: .transient, promising: .threadSafe,
      SQLiteContextFactoryGRDB.init)
    try container.register(SQLiteContext.self, promising: .threadSafe) {
      (factory: SQLiteContextFactory) in factory.create()
    }
    try container.register(
      RealmContextFactory.self, promising: .threadSafe, RealmContextFactoryImpl.init)
    try container.register(RealmContext.self, promising: .threadSafe) {
      (factory: RealmContextFactory) in factory.create()
    }
    try container.register(
      StationKeys.sqlite, promising: .threadSafe, dependencies: .byType,
      factory: RuuviPersistenceSQLite.init(context:))
    try container.register(
      StationKeys.realm, promising: .threadSafe, dependencies: .byType,
      factory: RuuviPersistenceRealm.init(context:))
    try container.register(
      RuuviPoolFactory.self, scope: .transient, promising: .threadSafe,
      RuuviPoolFactoryCoordinator.init)
    // The two persistences by name, the others by the closure's parameter types.
    try container.register(
      .byType, promising: .threadSafe,
      dependencies: .byType, StationKeys.sqlite, StationKeys.realm, .byType, .byType, .byType
    ) {
      (
        factory: RuuviPoolFactory, sqlite: RuuviPersistence, realm: RuuviPersistence,
        ids: RuuviLocalIDs, settings: RuuviLocalSettings, connections: RuuviLocalConnections
      ) -> RuuviPool in
      factory.create(
        sqlite: sqlite, realm: realm, idPersistence: ids, settings: settings,
        connectionPersistence: connections)
    }
    try container.register(
      RuuviStorageFactory.self, scope: .transient, promising: .threadSafe,
      RuuviStorageFactoryCoordinator.init)
    try container.register(
      .byType, promising: .threadSafe, dependencies: .byType, StationKeys.realm, StationKeys.sqlite
    ) {
      (factory: RuuviStorageFactory, realm: RuuviPersistence, sqlite: RuuviPersistence)
        -> RuuviStorage in
      factory.create(realm: realm, sqlite: sqlite)
    }
  }
}

/// The one migration, registered under a name as the app registers it.
struct MigrationAssembly: Module {
  func register(in container: Container) throws(DeferredError) {
    try container.register(
      RuuviMigration.self, name: "realm", scope: .transient, promising: .threadSafe,
      MigrationManagerToVIPER.init(localImages:settings:))
  }
}

/// Background work, started after the first frame.
struct DaemonAssembly: Module {
  func register(in container: Container) throws(DeferredError) {
    try container.register(
      DataPruningOperationsManager.self, scope: .transient, promising: .threadSafe,
      DataPruningOperationsManager.init(settings:ruuviStorage:ruuviPool:))
    try container.register(
      BackgroundProcessService.self, priority: .afterFirstFrame(), promising: .threadSafe,
      BackgroundProcessServiceiOS13.init(dataPruningOperationsManager:))
    try container.register(
      PullWebDaemon.self, priority: .afterFirstFrame(), promising: .threadSafe,
      PullWebDaemonOperations.init(settings:))
  }
}

/// Screens: a presenter per screen, its dependencies set as properties; the weather service
/// is optional (the app registers it only with an API key).
struct PresentationAssembly: Module {
  func register(in container: Container) throws(DeferredError) {
    try container.register(CardsPresenter.self, scope: .transient, promising: .mainActor) {
      resolver in
      let presenter = CardsPresenter()
      presenter.settings = try resolver.resolve(RuuviLocalSettings.self)
      presenter.ruuviPool = try resolver.resolve(RuuviPool.self)
      presenter.weatherAPI = try resolver.resolveIfRegistered(OpenWeatherMapAPI.self)
      return presenter
    }
  }
}

/// The keys of the services the app registers under a name.
enum StationKeys {
  static let sqlite = ServiceKey<RuuviPersistence>(name: "sqlite")
  static let realm = ServiceKey<RuuviPersistence>(name: "realm")
}

/// The app's container, with every assembly installed.
public enum StationApp {
  static func makeContainer(scheduler: any LaunchScheduler = DispatchScheduler())
    throws -> Container
  {
    let container = Container(scheduler: scheduler)
    try container.install(
      PersistenceAssembly(), MigrationAssembly(), DaemonAssembly(), PresentationAssembly())
    return container
  }

  /// Launches the app's container as the app does, on the main actor: checks its graph and
  /// builds the first screen's presenter and the migration; stops with the reason if any step
  /// fails.
  ///
  /// - Returns: What was built.
  @MainActor public static func launchForCheck() throws -> String {
    let app = try makeContainer(scheduler: ManualScheduler())
    let issues = app.validate()
    precondition(issues.isEmpty, "StationApp: \(issues)")
    try app.launch()
    let presenter = try app.resolve(CardsPresenter.self)
    precondition(presenter.settings != nil && presenter.weatherAPI == nil)
    try app.resolve(RuuviMigration.self, name: "realm").migrateIfNeeded()
    return "StationApp: cards in \(presenter.settings.temperatureUnit), no weather service"
  }
}
