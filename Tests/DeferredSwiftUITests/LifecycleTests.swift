import Deferred
import Foundation
import Testing

@testable import DeferredSwiftUI

@Suite struct LifecycleMachineTests {
  typealias Action = LifecycleMachine.Action

  @Test func aSceneThatIsActiveBeforeItsFirstFrameGoesIdleRightAfterIt() {
    var machine = LifecycleMachine()
    #expect(machine.scene(1, is: .inactive) == [])
    #expect(machine.scene(1, is: .active) == [])
    #expect(machine.firstFrameCommitted() == [.firstFrameDrawn, .appIsIdle])
    #expect(machine.firstFrameCommitted() == [])
  }

  @Test func aSceneThatBecomesActiveAfterItsFirstFrameGoesIdleThen() {
    var machine = LifecycleMachine()
    #expect(machine.scene(1, is: .inactive) == [])
    #expect(machine.firstFrameCommitted() == [.firstFrameDrawn])
    #expect(machine.scene(1, is: .active) == [.appIsIdle])
    #expect(machine.scene(1, is: .inactive) == [])
    #expect(machine.scene(1, is: .active) == [])
  }

  @Test func theAppPausesWhenEverySceneIsInTheBackgroundAndResumesWhenOneComesBack() {
    var machine = LifecycleMachine()
    _ = machine.scene(1, is: .active)
    _ = machine.scene(2, is: .active)
    _ = machine.firstFrameCommitted()
    #expect(machine.scene(1, is: .background) == [])
    #expect(machine.appPhase == .active)
    #expect(machine.scene(2, is: .inactive) == [])
    #expect(machine.scene(2, is: .background) == [.pause])
    #expect(machine.appPhase == .background)
    #expect(machine.scene(2, is: .background) == [])
    #expect(machine.scene(1, is: .inactive) == [.resume])
    #expect(machine.scene(1, is: .active) == [])
  }

  @Test func aSceneThatIsGoneLeavesTheOthersToDecide() {
    var machine = LifecycleMachine()
    #expect(machine.scene(1, is: .background) == [.pause])
    #expect(machine.scene(2, is: .inactive) == [.resume])
    #expect(machine.firstFrameCommitted() == [.firstFrameDrawn])
    #expect(machine.scene(2, is: .background) == [.pause])
    #expect(machine.sceneRemoved(2) == [])
    #expect(machine.scene(3, is: .active) == [.resume, .appIsIdle])
    #expect(machine.sceneRemoved(3) == [.pause])
    #expect(machine.sceneRemoved(1) == [])
    #expect(machine.appPhase == nil)
  }

  @Test func anAppLaunchedInTheBackgroundGoesIdleOnlyOnceActive() {
    var machine = LifecycleMachine()
    #expect(machine.scene(1, is: .background) == [.pause])
    #expect(machine.firstFrameCommitted() == [.firstFrameDrawn])
    #expect(machine.scene(1, is: .active) == [.resume, .appIsIdle])
  }
}

final class Conversions: Sendable {}

@MainActor @Suite struct LifecycleCoordinatorTests {
  @Test func theIdleServicesGoOnceTheSceneIsActiveWithoutWaitingForTheirDelay() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    let builds = Builds()
    try container.register(Catalog.self, priority: .afterFirstFrame()) { Catalog() }
    try container.register(Conversions.self, priority: .idle(after: .seconds(5))) {
      builds.tick()
      return Conversions()
    }
    try container.launch()
    let coordinator = LifecycleCoordinator(container)
    coordinator.scene(1, is: .inactive)
    coordinator.firstFrameCommitted()
    scheduler.runAll()
    #expect(builds.total == 0)  // its delay has not passed, and the app is not active
    coordinator.scene(1, is: .active)
    scheduler.runAll()
    #expect(builds.total == 1)  // without advancing the clock
    #expect(coordinator.performed == [.firstFrameDrawn, .appIsIdle])
    #expect(container.isFullyReady)
  }

  @Test func theBackgroundHoldsTheDeferredBuildsThatHaveNotStarted() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    let builds = Builds()
    try container.register(Catalog.self, priority: .afterFirstFrame()) {
      builds.tick()
      return Catalog()
    }
    try container.launch()
    let coordinator = LifecycleCoordinator(container)
    coordinator.scene(1, is: .active)
    coordinator.scene(1, is: .background)
    coordinator.firstFrameCommitted()
    scheduler.runAll()
    #expect(builds.total == 0)
    coordinator.scene(1, is: .active)
    scheduler.runAll()
    #expect(builds.total == 1)
    #expect(coordinator.performed == [.pause, .firstFrameDrawn, .resume, .appIsIdle])
  }

  @Test func everySceneOfAContainerSharesOneCoordinator() {
    let container = Container()
    #expect(LifecycleCoordinator.of(container) === LifecycleCoordinator.of(container))
    #expect(LifecycleCoordinator.of(Container()) !== LifecycleCoordinator.of(container))
    #expect(LifecycleCoordinator.newScene() != LifecycleCoordinator.newScene())
  }
}

@MainActor @Suite struct ApplicationNotificationTests {
  static let names = LifecycleNotifications(
    active: .init("test.active"), inactive: .init("test.inactive"),
    background: .init("test.background"), foreground: .init("test.foreground"))

  @Test func theApplicationsNotificationsDriveTheLaunchOnce() async throws {
    let container = Container()
    try container.launch()
    let center = NotificationCenter()
    let coordinator = LifecycleCoordinator(container)
    coordinator.follow(Self.names, in: center, from: .inactive)
    coordinator.follow(Self.names, in: center, from: .inactive)  // once
    await eventually { coordinator.performed == [.firstFrameDrawn] }
    center.post(name: Self.names.active, object: nil)
    await eventually { coordinator.performed.count == 2 }
    center.post(name: Self.names.inactive, object: nil)
    center.post(name: .init("test.background"), object: nil)
    await eventually { coordinator.performed.count == 3 }
    center.post(name: .init("test.foreground"), object: nil)
    center.post(name: Self.names.active, object: nil)
    await eventually { coordinator.performed.count == 4 }
    #expect(coordinator.performed == [.firstFrameDrawn, .appIsIdle, .pause, .resume])
  }
}
