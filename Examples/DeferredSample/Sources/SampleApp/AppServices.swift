import Deferred

/// The app's composition root: every service, registered once, with its launch priority.
public enum AppServices {
  /// The app's container; the app delegate launches it.
  public static let container: Container = {
    let container = Container()
    do {
      try register(in: container)
    } catch {
      preconditionFailure("The app's registrations are valid: \(error)")
    }
    return container
  }()

  /// Registers every service of the app in `container`.
  ///
  /// - Parameter container: The container to register in.
  public static func register(in container: Container) throws {
    try container.register(Theme.self, priority: .critical) { Theme.load() }
    try container.register(Storage.self) { try Storage() }
    try container.register(Calculator.self, priority: .afterFirstFrame(.userInitiated)) {
      Calculator()
    }
    try container.register(SyncService.self, priority: .afterFirstFrame(), SyncService.init)
    try container.register(Conversions.self, priority: .idle(after: .seconds(5))) {
      Conversions()
    }
    try container.registerMainActor(
      KeypadModel.self, priority: .afterFirstFrame(), KeypadModel.init(calculator:sync:))
  }
}
