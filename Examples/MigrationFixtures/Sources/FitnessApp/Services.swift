import Foundation

// The services of the app, as it declares them: protocols and classes without `Sendable`.
// Only what the composition root needs: each type stands in for the app's own.

protocol StorageManagerType: AnyObject {
  func save(_ name: String)
  var saved: [String] { get }
}

/// The store, behind its own lock: thread-safe by its own design.
final class StorageManager: StorageManagerType {
  private let lock = NSLock()
  private var names: [String] = []
  init() {}
  func save(_ name: String) { lock.withLock { names.append(name) } }
  var saved: [String] { lock.withLock { names } }
}

/// The double the app's tests use.
final class InMemoryStorageManager: StorageManagerType {
  private let lock = NSLock()
  private var names: [String] = []
  init() {}
  func save(_ name: String) { lock.withLock { names.append(name) } }
  var saved: [String] { lock.withLock { names } }
}

final class CoreDataStore {
  init() {}
}

protocol ExerciseDataStoreProtocol: AnyObject {}
final class ExerciseDataStore: ExerciseDataStoreProtocol {
  init(storage: StorageManagerType) {}
}

protocol GoalDataStoreProtocol: AnyObject {}
final class GoalDataStore: GoalDataStoreProtocol {
  init(storage: StorageManagerType) {}
}

protocol UserSessionManagerProtocol: AnyObject {
  var currentUserID: String? { get }
}

/// Reads the signed-in user from `UserDefaults`.
final class UserSessionManager: UserSessionManagerProtocol {
  let defaults: UserDefaults
  init(defaults: UserDefaults) { self.defaults = defaults }
  var currentUserID: String? { defaults.string(forKey: "userID") ?? "guest" }
}

protocol APIClient: AnyObject {
  func get(_ path: String) -> String
}

final class MusculosClient: APIClient {
  init() {}
  func get(_ path: String) -> String { "live \(path)" }
}

protocol ExerciseServiceProtocol: AnyObject {
  func exercises() -> [String]
}

final class ExerciseService: ExerciseServiceProtocol {
  let client: APIClient
  init(client: APIClient) { self.client = client }
  func exercises() -> [String] { [client.get("/exercises")] }
}

/// A per-user service: one for each signed-in user's container.
final class GoalSyncService {
  let userID: String
  let goals: GoalDataStoreProtocol
  init(userID: String, goals: GoalDataStoreProtocol) {
    self.userID = userID
    self.goals = goals
  }
}
