import Testing

@testable import Deferred

/// Made per resolve; needs a settings singleton.
final class Migrations: Sendable {
  init(settings: Storage, user: Network) {}
}

/// A critical singleton that needs the transient migrations.
final class LaunchGate: Sendable {
  init(migrations: Migrations) {}
}

@Suite struct TransientPriorityTests {
  @Test func aTransientWithAPriorityIsRefusedWithWhatToDoInstead() throws {
    let container = Container(scheduler: ManualScheduler())
    let error = #expect(throws: DeferredError.self) {
      try container.register(
        Migrations.self, scope: .transient, priority: .critical, Migrations.init(settings:user:))
    }
    #expect(error?.code == .invalidScope)
    #expect(error?.description.contains("Give the priority to the singletons it needs") == true)
    #expect(error?.description.contains("register it as a singleton") == true)
    // Without a priority it is registered, and so is one on demand.
    try container.register(
      Migrations.self, scope: .transient, priority: .onDemand, Migrations.init(settings:user:))
  }

  @Test func validateFollowsEdgesThroughTransients() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(Storage.self, priority: .critical) { Storage() }
    try container.register(Network.self, priority: .afterFirstFrame()) { Network() }
    try container.register(Migrations.self, scope: .transient, Migrations.init(settings:user:))
    try container.register(LaunchGate.self, priority: .critical, LaunchGate.init(migrations:))
    let issues = container.validate()
    #expect(issues.map(\.code) == [.criticalNeedsDeferred])
    // The warning names the singleton the launch would build early, through the transient.
    #expect(issues.first?.chain == ["LaunchGate", "Migrations", "Network"])
    #expect(issues.first?.service == "Network")
  }
}
