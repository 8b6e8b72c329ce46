import Deferred
import Foundation

// The app's Factory containers, migrated. `StorageContainer` and `AppContainer` (global
// `SharedContainer`s) become modules of one Deferred container; the per-user container is a
// child made at sign-in. Factory's scopes map as `.singleton` and `.cached` to a singleton,
// `.shared` to `.weak`, and the default `.unique` to `.transient`. No service's declaration
// changed: each registration states the promise its type's declaration does not.

/// The stores (the app's `StorageContainer`, whose default scope is `.shared`).
struct StorageModule: Module {
  func register(in container: Container) throws(DeferredError) {
    try container.register(UserDefaults.self, promising: .threadSafe) { .standard }
    try container.register(
      StorageManagerType.self, priority: .critical, promising: .threadSafe, StorageManager.init)
    try container.register(
      CoreDataStore.self, scope: .weak, promising: .threadSafe, CoreDataStore.init)
    try container.register(
      ExerciseDataStoreProtocol.self, promising: .threadSafe, ExerciseDataStore.init(storage:))
    try container.register(
      GoalDataStoreProtocol.self, promising: .threadSafe, GoalDataStore.init(storage:))
    try container.register(
      UserSessionManagerProtocol.self, promising: .threadSafe,
      UserSessionManager.init(defaults:))
  }
}

/// The network and the services over it (the app's `Container`).
struct NetworkModule: Module {
  func register(in container: Container) throws(DeferredError) {
    try container.register(APIClient.self, promising: .threadSafe, MusculosClient.init)
    try container.register(
      ExerciseServiceProtocol.self, priority: .afterFirstFrame(), promising: .threadSafe,
      ExerciseService.init(client:))
  }
}

// The `Has*` layer: a screen's model takes its dependencies as one value that has each. The
// app made its container that value (`dependencies: self`), which Deferred cannot see
// through. The layer is implemented on `ServiceReader` instead, and the model's registration
// declares what it reads: every read is an edge Deferred knows (validation, launch order,
// the report), and a child container's double reaches the model.

protocol HasExerciseService {
  var exerciseService: ExerciseServiceProtocol { get }
}

protocol HasStorageManager {
  var storageManager: StorageManagerType { get }
}

protocol HasUserSession {
  var userSession: UserSessionManagerProtocol { get }
}

extension ServiceReader: HasExerciseService, HasStorageManager, HasUserSession {
  var exerciseService: ExerciseServiceProtocol { self[ExerciseServiceProtocol.self] }
  var storageManager: StorageManagerType { self[StorageManagerType.self] }
  var userSession: UserSessionManagerProtocol { self[UserSessionManagerProtocol.self] }
}

/// The first screen's model.
final class ExerciseFeedModel {
  typealias Dependencies = HasExerciseService & HasStorageManager & HasUserSession
  let dependencies: Dependencies
  init(dependencies: Dependencies) { self.dependencies = dependencies }

  func load() -> [String] {
    let exercises = dependencies.exerciseService.exercises()
    exercises.forEach(dependencies.storageManager.save)
    return exercises
  }
}

/// The screens.
struct ScreenModule: Module {
  func register(in container: Container) throws(DeferredError) {
    try container.register(
      ExerciseFeedModel.self, scope: .transient, promising: .mainActor,
      reading: ExerciseServiceProtocol.self, StorageManagerType.self,
      UserSessionManagerProtocol.self
    ) { reader in ExerciseFeedModel(dependencies: reader) }
  }
}

/// The app's containers: one for the app, a child for each signed-in user.
public enum FitnessApp {
  /// The app's container, with every module installed.
  static func makeContainer(scheduler: any LaunchScheduler = DispatchScheduler())
    throws -> Container
  {
    let container = Container(scheduler: scheduler)
    try container.install(StorageModule(), NetworkModule(), ScreenModule())
    return container
  }

  /// The container of a signed-in user (the app's per-user `ManagedContainer`): its services
  /// are the user's; everything else is the app's.
  static func makeUserContainer(of app: Container, userID: String) throws -> Container {
    let user = app.makeChild()
    try user.register(ServiceKey<String>(name: "userID")) { _ in userID }
    try user.register(
      .byType, promising: .threadSafe, dependencies: ServiceKey<String>(name: "userID"), .byType,
      factory: GoalSyncService.init(userID:goals:))
    return user
  }

  /// Launches the app's container as the app does, on the main actor: checks its graph, builds
  /// the first screen's model and a signed-in user's service; stops with the reason if any
  /// step fails.
  ///
  /// - Returns: What was built.
  @MainActor public static func launchForCheck() throws -> String {
    let app = try makeContainer(scheduler: ManualScheduler())
    let issues = app.validate()
    precondition(issues.isEmpty, "FitnessApp: \(issues)")
    // What the feed reads through its layer are edges of the graph.
    precondition(app.launchReport().dependencies["ExerciseFeedModel"]?.count == 3)
    try app.launch()
    let feed = try app.resolve(ExerciseFeedModel.self)
    precondition(feed.load() == ["live /exercises"])
    let user = try makeUserContainer(of: app, userID: "ada")
    let goals = try user.resolve(GoalSyncService.self)
    precondition(goals.userID == "ada")
    // A test's double, in a child container: the feed, which reads the store through its
    // `Has*` value, gets the double.
    let test = try makeContainer(scheduler: ManualScheduler()).makeChild()
    try test.register(
      StorageManagerType.self, promising: .threadSafe,
      InMemoryStorageManager.init)
    let testFeed = try test.resolve(ExerciseFeedModel.self)
    precondition(testFeed.dependencies.storageManager is InMemoryStorageManager)
    return "FitnessApp: feed \(feed.dependencies.storageManager.saved), goals of \(goals.userID)"
  }
}
