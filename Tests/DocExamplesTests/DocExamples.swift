import Deferred
import Dispatch
import Foundation

/// The services the DocC articles' code uses: small stand-ins for an app's, so that every
/// block an article shows compiles and runs here (``ArticleSnippetTests`` checks that each
/// block is quoted from this target).
enum DocExamples {
  // Declared as a Swift 5-era app declares its services: no `Sendable` (ServicesThatAreNotSendable.md).

  protocol Store: AnyObject {
    func save(_ value: String)
  }

  /// Thread-safe by its own design: `UserDefaults` is.
  final class FileStore: Store {
    let defaults: UserDefaults
    init(defaults: UserDefaults) { self.defaults = defaults }
    func save(_ value: String) { defaults.set(value, forKey: "saved") }
  }

  /// Used only on the main thread, though its declaration does not say so.
  final class ProfileCoordinator {
    let store: Store
    var screens: [String] = []
    init(store: Store) { self.store = store }
  }

  /// A presenter whose dependencies are set after it is made.
  final class SettingsPresenter {
    var store: Store?
    var weather: WeatherAPI?
  }

  protocol WeatherAPI: AnyObject {}

  /// Needs the store, and the weather service if the app has one.
  final class Reminders {
    let store: Store
    let weather: WeatherAPI?
    init(store: Store, weather: WeatherAPI?) {
      self.store = store
      self.weather = weather
    }
  }

  /// Kept while a screen holds it.
  final class ImageCache: Sendable {}

  /// A screen's editor, behind a protocol bound to classes.
  protocol Editing: AnyObject, Sendable {}
  final class Editor: Editing {}

  /// Made anew for each use.
  final class Draft: Sendable {}

  struct Theme: Sendable {
    static func load() -> Theme { Theme() }
  }

  final class Storage: Sendable {
    init() throws {}
  }

  final class Network: Sendable {
    let online: Bool
    init(online: Bool = true) { self.online = online }
  }

  final class SyncService: Sendable {
    let storage: Storage
    let network: Network
    init(storage: Storage, network: Network) {
      self.storage = storage
      self.network = network
    }
    func push(_ edit: String) {}
  }

  final class Catalog: Sendable {}
  final class Config: Sendable {}
  final class Calculator: Sendable {}

  @MainActor final class KeypadModel {
    let calculator: Calculator
    init(calculator: Calculator) { self.calculator = calculator }
  }

  /// What the app would draw its first frame with.
  static func drawFirstFrame(theme: Theme) {}
}
