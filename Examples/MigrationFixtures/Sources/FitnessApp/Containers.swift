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
// app made the container itself that value (`dependencies: self`), which Deferred cannot see
// through; here each model's value is made from its factory's parameters, so every read is an
// edge Deferred knows, and a child container's double reaches it.

protocol HasExerciseService {
  var exerciseService: ExerciseServiceProtocol { get }
}

protocol HasStorageManager {
  var storageManager: StorageManagerType { get }
}

protocol HasUserSession {
  var userSession: UserSessionManagerProtocol { get }
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

/// What the feed reads, made from its factory's parameters.
struct FeedDependencies: ExerciseFeedModel.Dependencies {
  let exerciseService: ExerciseServiceProtocol
  let storageManager: StorageManagerType
  let userSession: UserSessionManagerProtocol
}

/// The screens.
struct ScreenModule: Module {
  func register(in container: Container) throws(DeferredError) {
    try container.register(ExerciseFeedModel.self, scope: .transient, promising: .mainActor) {
      (
        exercises: ExerciseServiceProtocol, storage: StorageManagerType,
        session: UserSessionManagerProtocol
      ) in
      ExerciseFeedModel(
        dependencies: FeedDependencies(
          exerciseService: exercises, storageManager: storage, userSession: session))
    }
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
