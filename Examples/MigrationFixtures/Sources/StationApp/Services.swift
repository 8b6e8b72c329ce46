import Foundation

// The services of the app, as it declares them: protocols and classes without `Sendable`,
// settings kept in `UserDefaults`. Only what the composition root needs: each type stands in
// for the app's own, with its initializer's shape.

protocol RuuviLocalSettings: AnyObject {
  var temperatureUnit: String { get set }
}

protocol RuuviLocalIDs: AnyObject {
  func luid(for mac: String) -> String?
}

protocol RuuviLocalConnections: AnyObject {
  var keepConnection: [String] { get }
}

protocol RuuviLocalImages: AnyObject {}

protocol RuuviLocalFactory {
  func createLocalSettings() -> RuuviLocalSettings
  func createLocalIDs() -> RuuviLocalIDs
  func createLocalConnections() -> RuuviLocalConnections
  func createLocalImages() -> RuuviLocalImages
}

final class LocalSettingsUserDefaults: RuuviLocalSettings {
  private let defaults: UserDefaults
  init(defaults: UserDefaults) { self.defaults = defaults }
  var temperatureUnit: String {
    get { defaults.string(forKey: "temperatureUnit") ?? "celsius" }
    set { defaults.set(newValue, forKey: "temperatureUnit") }
  }
}

final class LocalIDsUserDefaults: RuuviLocalIDs {
  private let defaults: UserDefaults
  init(defaults: UserDefaults) { self.defaults = defaults }
  func luid(for mac: String) -> String? { defaults.string(forKey: "luid.\(mac)") }
}

final class LocalConnectionsUserDefaults: RuuviLocalConnections {
  var keepConnection: [String] = []
}

final class LocalImagesUserDefaults: RuuviLocalImages {}

final class RuuviLocalFactoryUserDefaults: RuuviLocalFactory {
  let defaults: UserDefaults
  init(defaults: UserDefaults) { self.defaults = defaults }
  func createLocalSettings() -> RuuviLocalSettings {
    LocalSettingsUserDefaults(defaults: defaults)
  }
  func createLocalIDs() -> RuuviLocalIDs { LocalIDsUserDefaults(defaults: defaults) }
  func createLocalConnections() -> RuuviLocalConnections {
    LocalConnectionsUserDefaults()
  }
  func createLocalImages() -> RuuviLocalImages { LocalImagesUserDefaults() }
}

protocol SQLiteContext: AnyObject {}
protocol SQLiteContextFactory { func create() -> SQLiteContext }
final class SQLiteContextGRDB: SQLiteContext {}
final class SQLiteContextFactoryGRDB: SQLiteContextFactory {
  init() {}
  func create() -> SQLiteContext { SQLiteContextGRDB() }
}

protocol RealmContext: AnyObject {}
protocol RealmContextFactory { func create() -> RealmContext }
final class RealmContextImpl: RealmContext {}
final class RealmContextFactoryImpl: RealmContextFactory {
  init() {}
  func create() -> RealmContext { RealmContextImpl() }
}

protocol RuuviPersistence: AnyObject {
  var store: String { get }
}

final class RuuviPersistenceSQLite: RuuviPersistence {
  let store = "sqlite"
  let context: SQLiteContext
  init(context: SQLiteContext) { self.context = context }
}

final class RuuviPersistenceRealm: RuuviPersistence {
  let store = "realm"
  let context: RealmContext
  init(context: RealmContext) { self.context = context }
}

protocol RuuviPool: AnyObject {}
protocol RuuviPoolFactory {
  func create(
    sqlite: RuuviPersistence, realm: RuuviPersistence, idPersistence: RuuviLocalIDs,
    settings: RuuviLocalSettings, connectionPersistence: RuuviLocalConnections
  ) -> RuuviPool
}

final class RuuviPoolCoordinator: RuuviPool {
  let sqlite: RuuviPersistence
  init(sqlite: RuuviPersistence) { self.sqlite = sqlite }
}

final class RuuviPoolFactoryCoordinator: RuuviPoolFactory {
  init() {}
  func create(
    sqlite: RuuviPersistence, realm: RuuviPersistence, idPersistence: RuuviLocalIDs,
    settings: RuuviLocalSettings, connectionPersistence: RuuviLocalConnections
  ) -> RuuviPool {
    RuuviPoolCoordinator(sqlite: sqlite)
  }
}

protocol RuuviStorage: AnyObject {}
protocol RuuviStorageFactory {
  func create(realm: RuuviPersistence, sqlite: RuuviPersistence) -> RuuviStorage
}
final class RuuviStorageCoordinator: RuuviStorage {}
final class RuuviStorageFactoryCoordinator: RuuviStorageFactory {
  init() {}
  func create(realm: RuuviPersistence, sqlite: RuuviPersistence) -> RuuviStorage {
    RuuviStorageCoordinator()
  }
}

protocol RuuviMigration: AnyObject { func migrateIfNeeded() }
final class MigrationManagerToVIPER: RuuviMigration {
  init(localImages: RuuviLocalImages, settings: RuuviLocalSettings) {}
  func migrateIfNeeded() {}
}

final class DataPruningOperationsManager {
  init(settings: RuuviLocalSettings, ruuviStorage: RuuviStorage, ruuviPool: RuuviPool) {}
}

protocol BackgroundProcessService: AnyObject { func register() }
final class BackgroundProcessServiceiOS13: BackgroundProcessService {
  init(dataPruningOperationsManager: DataPruningOperationsManager) {}
  func register() {}
}

protocol PullWebDaemon: AnyObject { func start() }
final class PullWebDaemonOperations: PullWebDaemon {
  init(settings: RuuviLocalSettings) {}
  func start() {}
}

/// A weather service the app builds only when its API key is configured: absent otherwise.
protocol OpenWeatherMapAPI: AnyObject {}

/// A screen's presenter: made per screen, its dependencies set as properties, one optional.
final class CardsPresenter {
  var settings: RuuviLocalSettings!
  var ruuviPool: RuuviPool!
  var weatherAPI: OpenWeatherMapAPI?
  init() {}
}
