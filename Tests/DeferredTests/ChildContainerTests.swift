import Dispatch
import Synchronization
import Testing

@testable import Deferred

@Suite struct ChildContainerTests {
  static func app(runs: Runs = Runs()) throws -> Container {
    let container = Container()
    try container.register(Storage.self) {
      runs.tick("storage")
      return Storage(label: "disk")
    }
    try container.register(Network.self) {
      runs.tick("network")
      return Network(online: true)
    }
    try container.register(SyncService.self) { (storage: Storage, network: Network) in
      runs.tick("sync")
      return SyncService(storage: storage, network: network)
    }
    try container.register(AppModel.self) { (sync: SyncService) in
      runs.tick("model")
      return AppModel(sync: sync)
    }
    return container
  }

  @Test func overrideStaysInTheChild() throws {
    let parent = try Self.app()
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    #expect(try child.resolve(Network.self).online == false)
    #expect(try parent.resolve(Network.self).online == true)
    let sibling = parent.makeChild()
    #expect(try sibling.resolve(Network.self).online == true)
  }

  @Test func dependentsOfAnOverrideAreBuiltAnewInTheChild() throws {
    let runs = Runs()
    let parent = try Self.app(runs: runs)
    let realModel = try parent.resolve(AppModel.self)
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    let model = try child.resolve(AppModel.self)
    #expect(model !== realModel)
    #expect(model.sync.network.online == false)
    // Storage does not depend on Network: the child shares the parent's.
    #expect(model.sync.storage === realModel.sync.storage)
    #expect(runs["storage"] == 1)
    #expect(runs["sync"] == 2)
    #expect(runs["model"] == 2)
    // The parent still has its real one.
    #expect(try parent.resolve(AppModel.self) === realModel)
  }

  @Test func childBuiltBeforeParentDoesNotLeakUpward() throws {
    let parent = try Self.app()
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    let childSync = try child.resolve(SyncService.self)
    let parentSync = try parent.resolve(SyncService.self)
    #expect(childSync !== parentSync)
    #expect(parentSync.network.online)
    #expect(childSync.storage === parentSync.storage)
  }

  @Test func resolverFormIsBuiltAnewWhenTheChildOverridesAnything() throws {
    let parent = Container()
    try parent.register(Network.self) { Network(online: true) }
    try parent.register(SyncService.self) { resolver in
      SyncService(storage: Storage(), network: try resolver.resolve())
    }
    _ = try parent.resolve(SyncService.self)
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    #expect(try child.resolve(SyncService.self).network.online == false)
  }

  @Test func childWithoutOverridesSharesEverything() throws {
    let parent = try Self.app()
    let child = parent.makeChild()
    #expect(try child.resolve(AppModel.self) === (try parent.resolve(AppModel.self)))
  }

  @Test func grandchildSeesBothLayers() throws {
    let parent = try Self.app()
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    let grandchild = child.makeChild()
    try grandchild.register(Storage.self) { Storage(label: "memory") }
    let sync = try grandchild.resolve(SyncService.self)
    #expect(sync.storage.label == "memory")
    #expect(sync.network.online == false)
    #expect(try child.resolve(SyncService.self).storage.label == "disk")
  }

  @Test func registeringInAChildAfterItResolvedIsTooLate() throws {
    let child = try Self.app().makeChild()
    _ = try child.resolve(Storage.self)
    let error = #expect(throws: DeferredError.self) {
      try child.register(Network.self) { Network(online: false) }
    }
    #expect(error?.code == .registrationTooLate)
  }

  @Test func parentRegistrationsAfterTheChildWasMadeAreSeen() throws {
    let parent = Container()
    let child = parent.makeChild()
    _ = try? child.resolve(Storage.self)
    try parent.register(Storage.self) { Storage(label: "late") }
    #expect(try child.resolve(Storage.self).label == "late")
  }

  @Test func aParentRegistrationDependingOnAnOverrideIsBuiltAnewInTheChild() throws {
    let runs = Runs()
    let (parent, child) = try parentAndOfflineChild()
    try parent.register(SyncService.self) { (storage: Storage, network: Network) in
      runs.tick("sync")
      return SyncService(storage: storage, network: network)
    }
    let sync = try child.resolve(SyncService.self)
    #expect(sync.network.online == false)
    #expect(try child.resolve(SyncService.self) === sync)
    #expect(try parent.resolve(SyncService.self).network.online)
    #expect(runs["sync"] == 2)
  }

  /// The parent registers twice during one lookup of the child's that asks it: something else
  /// first (the child works its copies out again and asks again), then the service looked up,
  /// which depends on the child's override: the child sees that registration too, and builds
  /// its own copy, never the parent's node.
  @Test func aRegistrationDuringAChildsLookupOfItIsCopied() throws {
    let (parent, child) = try parentAndOfflineChild()
    let asked = Locked(0)
    child.onParentLookup {
      let time = asked.withLock { count in
        count += 1
        return count
      }
      if time == 1 {
        _ = try? parent.register(Storage.self, name: "cache") { Storage(label: "cache") }
      } else if time == 2 {
        _ = try? parent.register(SyncService.self) { (storage: Storage, network: Network) in
          SyncService(storage: storage, network: network)
        }
      }
    }
    // One lookup (the public resolve looks up again, which would hide a wrong first answer).
    let sync = try child.resolve(ServiceKey<SyncService>(), context: nil)
    child.onParentLookup(nil)
    #expect(asked.withLock { $0 } >= 2)
    #expect(sync.network.online == false)
    #expect(try child.resolve(SyncService.self) === sync)
    #expect(try parent.resolve(SyncService.self).network.online)
  }

  @Test func aChildOfAShutDownParentGetsShutDown() throws {
    let parent = try Self.app()
    let child = parent.makeChild()
    parent.shutDown()
    let error = #expect(throws: DeferredError.self) { try child.resolve(Storage.self) }
    #expect(error?.code == .shutDown)
    #expect(error?.suggestions == [])
  }

  @Test func whatAChildInheritsFailsOnceItsParentShutsDown() throws {
    let parent = try Self.app()
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    _ = try child.resolve(Storage.self)
    parent.shutDown()
    for resolve in [
      { _ = try child.resolve(Storage.self) }, { _ = try child.resolve(AppModel.self) },
    ] {
      let error = #expect(throws: DeferredError.self) { try resolve() }
      #expect(error?.code == .shutDown)
    }
    // Its own registrations do not need the parent.
    #expect(try child.resolve(Network.self).online == false)
  }

  @Test func replacingInAParentOnceAChildResolvedIsRefusedNamingTheChild() throws {
    let parent = try Self.app()
    let (child, line) = (parent.makeChild(), #line)
    _ = try child.resolve(Storage.self)
    let error = #expect(throws: DeferredError.self) {
      try parent.register(Network.self, replacing: true) { Network(online: false) }
    }
    #expect(error?.code == .registrationTooLate)
    #expect(error?.description.contains("ChildContainerTests.swift:\(line) has resolved") == true)
    // Nothing changed, in the parent or the child.
    #expect(try child.resolve(Network.self).online)
    #expect(try parent.resolve(Network.self).online)
  }

  @Test func aParentReplacesBeforeAnyChildResolvesAndOnceItsChildrenAreGone() throws {
    let parent = try Self.app()
    func childSeesTheNewNetwork() throws -> Bool {
      let child = parent.makeChild()
      try parent.register(Network.self, replacing: true) { Network(online: false) }
      let offline = try child.resolve(Network.self).online == false
      // While the child lives, the parent's registrations are fixed.
      #expect(throws: DeferredError.self) {
        try parent.register(Storage.self, replacing: true) { Storage(label: "too late") }
      }
      return offline
    }
    #expect(try childSeesTheNewNetwork())
    try parent.register(Storage.self, replacing: true) { Storage(label: "memory") }
    #expect(try parent.resolve(Storage.self).label == "memory")
  }

  @Test func overridesHoldOnEveryQueue() throws {
    let parent = try Self.app()
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    let online = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      DispatchQueue.global(qos: .utility).sync {
        if (try? child.resolve(AppModel.self))?.sync.network.online != false {
          online.add(1, ordering: .relaxed)
        }
      }
    }
    #expect(online.load(ordering: .relaxed) == 0)
  }

  /// A launched child schedules a deferred service its parent registers after the child's
  /// first frame, as it schedules the parent's deferred services at its first frame: shared
  /// with the parent if it needs no override of the child's (built once, whichever schedules
  /// it), copied into the child if it does.
  @Test func aLaunchedChildSchedulesWhatItsParentRegistersAfterItsFirstFrame() throws {
    let runs = Runs()
    let scheduler = ManualScheduler()
    let parent = Container(scheduler: scheduler, clock: scheduler.clock)
    try parent.register(Storage.self) { Storage(label: "disk") }
    try parent.register(Network.self) { Network(online: true) }
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    try child.launch()
    try child.firstFrameDrawn()
    #expect(child.isFullyReady)
    try parent.register(Storage.self, name: "late", priority: .afterFirstFrame()) {
      runs.tick("late storage")
      return Storage(label: "late")
    }
    try parent.register(SyncService.self, priority: .afterFirstFrame()) {
      (storage: Storage, network: Network) in
      runs.tick(network.online ? "parent sync" : "child sync")
      return SyncService(storage: storage, network: network)
    }
    #expect(scheduler.queued == ["build Storage[\"late\"]", "build SyncService"])
    while scheduler.runNext() {}
    #expect(runs["late storage"] == 1)
    #expect(runs["child sync"] == 1)
    #expect(runs["parent sync"] == 0)
    #expect(try child.resolve(SyncService.self).network.online == false)
    #expect(try child.resolve(Storage.self, name: "late").label == "late")
    #expect(child.isFullyReady)
  }

  /// A child launched along with its parent: a service the parent registers later is built
  /// once, whichever container's schedule gets to it first.
  @Test func aServiceBothContainersScheduleIsBuiltOnce() throws {
    let runs = Runs()
    let scheduler = ManualScheduler()
    let parent = Container(scheduler: scheduler, clock: scheduler.clock)
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    for container in [parent, child] {
      try container.launch()
      try container.firstFrameDrawn()
    }
    try parent.register(Storage.self, priority: .afterFirstFrame()) {
      runs.tick("storage")
      return Storage(label: "disk")
    }
    #expect(scheduler.queued == ["build Storage", "build Storage"])
    while scheduler.runNext() {}
    #expect(runs["storage"] == 1)
    #expect(try child.resolve(Storage.self) === (try parent.resolve(Storage.self)))
  }

  static let shared = try! app()

  /// Swift Testing runs these in parallel: each sees only its own double.
  @Test(arguments: 0..<64)
  func parallelTestsSeeOnlyTheirOwnDoubles(index: Int) throws {
    let child = Self.shared.makeChild()
    try child.register(Storage.self) { Storage(label: "double \(index)") }
    let model = try child.resolve(AppModel.self)
    #expect(model.sync.storage.label == "double \(index)")
    #expect(try Self.shared.resolve(Storage.self).label == "disk")
  }

  /// A parent with a storage and an online network, and a child that overrides the network
  /// offline and has looked the storage up (so it has worked out its copies once).
  private func parentAndOfflineChild() throws -> (parent: Container, child: Container) {
    let parent = Container()
    try parent.register(Storage.self) { Storage() }
    try parent.register(Network.self) { Network(online: true) }
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    _ = try child.resolve(Storage.self)
    return (parent, child)
  }
}
