import Dependencies
import Foundation
import Testing

// The swift-dependencies code of Docs/Comparison.md ("Coming from swift-dependencies"),
// compiled by the benchmarks' build; DocExamplesTests checks that the page quotes it. The code
// the page shows at the top level runs here in `dependenciesApp()`.

enum StorageKey: DependencyKey {
  static let liveValue: any Storage = FileStorage()
}
enum NetworkKey: DependencyKey {
  static let liveValue: any Network = HTTPNetwork()
}
enum SyncServiceKey: DependencyKey {
  static var liveValue: SyncService {
    @Dependency(\.storage) var storage
    @Dependency(\.network) var network
    return SyncService(storage: storage, network: network)
  }
  // Without a test value, a test that reads it fails (it would fall back to the live one).
  static var testValue: SyncService { liveValue }
}
// One object as two dependencies: two keys, one shared instance.
enum AnalyticsServiceKey {
  static let shared = AnalyticsService()
}
enum AnalyticsKey: DependencyKey {
  static let liveValue: any Analytics = AnalyticsServiceKey.shared
}
enum LoggerKey: DependencyKey {
  static let liveValue: any Logger = AnalyticsServiceKey.shared
}
// No session scope: a dependency that holds the session and clears it itself.
final class SessionStore: @unchecked Sendable {
  private let lock = NSLock()
  private var session: UserSession?
  func current() -> UserSession {
    @Dependency(\.storage) var storage
    return lock.withLock {
      if let session { return session }
      let made = UserSession(storage: storage)
      session = made
      return made
    }
  }
  func logOut() { lock.withLock { session = nil } }
}
enum SessionStoreKey: DependencyKey {
  static let liveValue = SessionStore()
}
// No arguments: a dependency whose value makes one.
struct DetailModelFactory: Sendable {
  var make: @Sendable (Int) -> DetailModel
}
enum DetailModelFactoryKey: DependencyKey {
  static var liveValue: DetailModelFactory {
    @Dependency(\.storage) var storage
    return DetailModelFactory { DetailModel(id: $0, storage: storage) }
  }
}

extension DependencyValues {
  var storage: any Storage {
    get { self[StorageKey.self] }
    set { self[StorageKey.self] = newValue }
  }
  var network: any Network {
    get { self[NetworkKey.self] }
    set { self[NetworkKey.self] = newValue }
  }
  // ... and likewise syncService, analytics, logger, sessionStore, detailModelFactory.
}

// The keys the page elides ("and likewise").
extension DependencyValues {
  var syncService: SyncService {
    get { self[SyncServiceKey.self] }
    set { self[SyncServiceKey.self] = newValue }
  }
  var analytics: any Analytics {
    get { self[AnalyticsKey.self] }
    set { self[AnalyticsKey.self] = newValue }
  }
  var logger: any Logger {
    get { self[LoggerKey.self] }
    set { self[LoggerKey.self] = newValue }
  }
  var sessionStore: SessionStore {
    get { self[SessionStoreKey.self] }
    set { self[SessionStoreKey.self] = newValue }
  }
  var detailModelFactory: DetailModelFactory {
    get { self[DetailModelFactoryKey.self] }
    set { self[DetailModelFactoryKey.self] = newValue }
  }
}

/// The page's top-level code.
func dependenciesApp() {
  // After the first frame, warm up sync yourself:
  Task.detached(priority: .utility) {
    @Dependency(\.syncService) var sync
    _ = sync
  }
}

final class ProfileViewModel {
  @Dependency(\.logger) var logger
  @Dependency(\.detailModelFactory) var detailModels
  @Dependency(\.sessionStore) var sessions
  func open(id: Int) -> DetailModel { detailModels.make(id) }
  func logOut() { sessions.logOut() }
}

// A test:
@Test func syncUsesTheNetwork() {
  withDependencies {
    $0.storage = FileStorage()  // every dependency a test reads needs a test value
    $0.network = FakeNetwork()
  } operation: {
    @Dependency(\.syncService) var sync
    #expect(sync.network.fetch("/inbox") == "fake /inbox")
  }
}
