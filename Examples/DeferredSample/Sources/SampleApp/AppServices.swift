import Deferred

extension Scope {
  /// The signed-in user's services: signing out resets it.
  public static let account = Scope.named("account")
}

/// The app's composition root: every service, registered once, with its launch priority.
public enum AppServices {
  /// The app's container; ``launch()`` launches it.
  public static let container: Container = {
    let container = Container()
    do {
      try register(in: container)
    } catch {
      preconditionFailure("The app's registrations are valid: \(error)")
    }
    return container
  }()

  /// Launches the container, before the first frame: the app's `init`, or the app delegate's
  /// `application(_:didFinishLaunchingWithOptions:)` in a UIKit app.
  public static func launch() {
    do {
      try container.launch()
    } catch {
      preconditionFailure("The launch failed: \(error)")
    }
  }

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
    try container.register(Account.self, scope: .account, priority: .afterFirstFrame()) {
      Account.signIn()
    }
  }
}
