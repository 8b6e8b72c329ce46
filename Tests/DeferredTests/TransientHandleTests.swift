import DeferredReports
import Dispatch
import Synchronization
import Testing

@testable import Deferred

/// A transient service: a new one on every read, from the shared storage.
private final class Gauge: Sendable {
  let storage: Storage
  let label: String
  init(_ storage: Storage) {
    self.storage = storage
    self.label = "gauge"
  }

  init(_ storage: Storage, label: String) {
    self.storage = storage
    self.label = label
  }
}

/// A singleton made from the storage, registered late in a test.
private final class Pantry: Sendable {
  let storage: Storage
  init(_ storage: Storage) { self.storage = storage }
}

/// A transient made from a shelf.
private final class Reading: Sendable {
  let shelf: Pantry
  init(_ shelf: Pantry) { self.shelf = shelf }
}

/// A handle filled in after the registration whose factory reads it.
private final class HandleHolder: Sendable {
  let handle = Locked<ServiceHandle<Gauge>?>(nil)
}

/// A transient service read through a handle: made at once once its dependencies are built,
/// with `resolve`'s semantics before and around that.
@Suite struct TransientHandleTests {
  @Test func aHandleMadeBeforeTheBuildBuildsTheDependencyOnceThenMakesAtOnce() throws {
    let container = Container()
    let runs = Runs()
    try container.register(Storage.self) {
      runs.tick("storage")
      return Storage()
    }
    try container.register(Gauge.self, scope: .transient) { (storage: Storage) in
      runs.tick("gauge")
      return Gauge(storage)
    }
    let handle = try container.handle(Gauge.self)
    #expect(runs.total == 0)
    #expect(!handle.node.makesAtOnce)
    var made: [Gauge] = []
    for _ in 0..<5 { made.append(try handle.resolve()) }
    made.append(handle.require())
    made.append(try handle.withValue { $0 })
    // The dependency was built once, by the first read; every read made a new value.
    #expect(runs["storage"] == 1)
    #expect(runs["gauge"] == 7)
    #expect(Set(made.map(ObjectIdentifier.init)).count == 7)
    let storage = try container.resolve(Storage.self)
    #expect(made.allSatisfy { $0.storage === storage })
    // From the reads after the dependency was seen built: made at once.
    #expect(handle.node.makesAtOnce)
    #expect(BuildContext.current.isIdle)
  }

  @Test func aFailingDependencyFailsTheReadNamingTheChainThenItIsBuiltOnTheNext() throws {
    let container = Container()
    let fails = Atomic<Bool>(true)
    try container.register(Storage.self) {
      if fails.load(ordering: .relaxed) { throw Failure(message: "disk full") }
      return Storage()
    }
    try container.register(Gauge.self, scope: .transient, Gauge.init(_:))
    let handle = try container.handle(Gauge.self)
    let error = #expect(throws: DeferredError.self) { try handle.resolve() }
    #expect(error?.code == .factoryFailed)
    #expect(error?.service == "Storage")
    #expect(error?.chain == ["Gauge", "Storage"])
    #expect(!handle.node.makesAtOnce)
    fails.store(false, ordering: .relaxed)
    #expect(try handle.resolve().storage === container.resolve(Storage.self))
  }

  @Test func aFactoryThatThrowsWhenMadeAtOnceFailsNamingItAndIsCounted() throws {
    let container = Container(scheduler: ManualScheduler(), clock: ManualClock())
    let fails = Atomic<Bool>(false)
    try container.register(Storage.self) { Storage() }
    try container.register(Gauge.self, scope: .transient) { (storage: Storage) in
      if fails.load(ordering: .relaxed) { throw Failure(message: "no reading") }
      return Gauge(storage)
    }
    let handle = try container.handle(Gauge.self)
    for _ in 0..<2 { _ = try handle.resolve() }
    #expect(handle.node.makesAtOnce)
    fails.store(true, ordering: .relaxed)
    let error = #expect(throws: DeferredError.self) { try handle.resolve() }
    #expect(error?.code == .factoryFailed)
    #expect(error?.service == "Gauge")
    #expect(error?.chain == ["Gauge"])
    #expect((error?.underlying as? Failure)?.message == "no reading")
    // Nothing is left on the thread's chain: a later read is made at once again.
    fails.store(false, ordering: .relaxed)
    _ = try handle.resolve()
    let record = container.launchReport().transients.first { $0.service == "Gauge" }
    #expect(record?.count == 4)
  }

  @Test func readFromAnotherFactoryItIsResolvedOnThatChain() throws {
    // Inside a build, a handle's read is the ordinary resolve: its errors name the whole chain.
    let container = Container()
    let holder = HandleHolder()
    // The handle holds the container, whose factory holds the holder: let go at the end.
    defer { holder.handle.withLock { $0 = nil } }
    let fails = Atomic<Bool>(false)
    try container.register(Storage.self) { Storage() }
    try container.register(Gauge.self, scope: .transient) { (storage: Storage) in
      if fails.load(ordering: .relaxed) { throw Failure(message: "no reading") }
      return Gauge(storage)
    }
    try container.register(SyncService.self) { (_: borrowing Resolver) in
      let gauge = try holder.handle.withLock { $0 }!.resolve()
      return SyncService(storage: gauge.storage, network: Network())
    }
    let handle = try container.handle(Gauge.self)
    holder.handle.withLock { $0 = handle }
    for _ in 0..<2 { _ = try handle.resolve() }
    fails.store(true, ordering: .relaxed)
    let error = #expect(throws: DeferredError.self) { try container.resolve(SyncService.self) }
    #expect(error?.code == .factoryFailed)
    #expect(error?.service == "Gauge")
    #expect(error?.chain == ["SyncService", "Gauge"])
  }

  @Test func aFactoryThatMakesItselfThroughItsHandleIsACycleNotARecursion() throws {
    let container = Container()
    let holder = HandleHolder()
    // The handle holds the container, whose factory holds the holder: let go at the end.
    defer { holder.handle.withLock { $0 = nil } }
    let recurses = Atomic<Bool>(false)
    try container.register(Storage.self) { Storage() }
    try container.register(Gauge.self, scope: .transient) { (storage: Storage) in
      if recurses.load(ordering: .relaxed) {
        return try holder.handle.withLock { $0 }!.resolve()
      }
      return Gauge(storage)
    }
    let handle = try container.handle(Gauge.self)
    holder.handle.withLock { $0 = handle }
    for _ in 0..<2 { _ = try handle.resolve() }
    #expect(handle.node.makesAtOnce)
    recurses.store(true, ordering: .relaxed)
    let error = #expect(throws: DeferredError.self) { try handle.resolve() }
    #expect(error?.code == .cycle)
    #expect(error?.service == "Gauge")
  }

  @Test func whatAFactoryMadeAtOnceResolvesNamesItOnTheChain() throws {
    // The making is on the thread's chain only once something reads it: here a singleton the
    // factory resolves itself, which fails, and whose error names the transient first.
    let container = Container()
    let network = Locked<ServiceHandle<Network>?>(nil)
    // The handle holds the container, whose factory holds the handle: let go at the end.
    defer { network.withLock { $0 = nil } }
    let resolves = Atomic<Bool>(false)
    try container.register(Storage.self) { Storage() }
    try container.register(Network.self) { () throws -> Network in
      throw Failure(message: "offline")
    }
    try container.register(Gauge.self, scope: .transient) { (storage: Storage) in
      if resolves.load(ordering: .relaxed) { _ = try network.withLock { $0 }!.resolve() }
      return Gauge(storage)
    }
    network.withLock { $0 = try? container.handle(Network.self) }
    let handle = try container.handle(Gauge.self)
    for _ in 0..<2 { _ = try handle.resolve() }
    #expect(handle.node.makesAtOnce)
    resolves.store(true, ordering: .relaxed)
    let error = #expect(throws: DeferredError.self) { try handle.resolve() }
    #expect(error?.code == .factoryFailed)
    #expect(error?.service == "Network")
    #expect(error?.chain == ["Gauge", "Network"])
    // The making's key came off the chain with it: the thread is idle, the next read made at
    // once.
    #expect(BuildContext.current.isIdle)
    resolves.store(false, ordering: .relaxed)
    _ = try handle.resolve()
    #expect(BuildContext.current.isIdle)
    let record = container.launchReport().transients.first { $0.service == "Gauge" }
    #expect(record?.count == 4)
  }

  @Test func aChildsHandleMakesItWithTheChildsOverride() throws {
    let parent = Container()
    try parent.register(Storage.self) { Storage() }
    try parent.register(Gauge.self, scope: .transient, Gauge.init(_:))
    let inParent = try parent.handle(Gauge.self)
    for _ in 0..<3 { #expect(try inParent.resolve().storage.label == "disk") }
    #expect(inParent.node.makesAtOnce)
    let child = parent.makeChild()
    try child.register(Storage.self) { Storage(label: "double") }
    let inChild = try child.handle(Gauge.self)
    for _ in 0..<3 { #expect(try inChild.resolve().storage.label == "double") }
    #expect(inChild.node.makesAtOnce)
    #expect(inChild.node !== inParent.node)
    #expect(try inParent.resolve().storage.label == "disk")
  }

  /// A child's handle, made while the transient it reads was the parent's (what it needs was
  /// not registered yet), keeps to what the child resolves once the parent registers that late
  /// and the child copies the transient for its override: never the parent's node made at once
  /// with the parent's dependencies, even after the parent has made it at once.
  @Test func aChildsHandleFollowsTheCopyMadeWhenItsParentRegistersLate() throws {
    let parent = Container()
    try parent.register(Storage.self) { Storage() }
    try parent.register(Reading.self, scope: .transient) { (shelf: Pantry) in Reading(shelf) }
    let child = parent.makeChild()
    try child.register(Storage.self) { Storage(label: "double") }
    let inChild = try child.handle(Reading.self)
    try parent.register(Pantry.self) { (storage: Storage) in Pantry(storage) }
    for _ in 0..<2 { #expect(try parent.resolve(Reading.self).shelf.storage.label == "disk") }
    #expect(inChild.node.makesAtOnce)
    #expect(try child.resolve(Reading.self).shelf.storage.label == "double")
    #expect(try inChild.resolve().shelf.storage.label == "double")
    #expect(try inChild.withValue { $0.shelf.storage.label } == "double")
    #expect(try parent.resolve(Reading.self).shelf.storage.label == "disk")
  }

  @Test func aReplacedTransientIsMadeByItsReplacement() throws {
    let container = Container()
    try container.register(Storage.self) { Storage() }
    try container.register(Gauge.self, scope: .transient, Gauge.init(_:))
    let handle = try container.handle(Gauge.self)
    for _ in 0..<3 { #expect(try handle.resolve().label == "gauge") }
    #expect(handle.node.makesAtOnce)
    try container.register(Gauge.self, scope: .transient, replacing: true) { (storage: Storage) in
      Gauge(storage, label: "replacement")
    }
    #expect(!handle.node.makesAtOnce)
    #expect(try handle.resolve().label == "replacement")
    #expect(try handle.withValue { $0.label } == "replacement")
  }

  @Test func afterShutDownTheHandleThrowsEvenOnceItMadeAtOnce() throws {
    let parent = Container()
    try parent.register(Storage.self) { Storage() }
    try parent.register(Gauge.self, scope: .transient, Gauge.init(_:))
    let child = parent.makeChild()
    let inChild = try child.handle(Gauge.self)
    let inParent = try parent.handle(Gauge.self)
    for _ in 0..<3 {
      _ = try inChild.resolve()
      _ = try inParent.resolve()
    }
    #expect(inParent.node.makesAtOnce)
    parent.shutDown()
    for read in [{ _ = try inParent.resolve() }, { _ = try inChild.resolve() }] {
      let error = #expect(throws: DeferredError.self) { try read() }
      #expect(error?.code == .shutDown)
    }
  }

  @Test func manyThreadsMakeThroughOneHandleFromBeforeTheBuild() throws {
    let container = Container(scheduler: ManualScheduler(), clock: ManualClock())
    let runs = Runs()
    try container.register(Storage.self) {
      runs.tick("storage")
      return Storage()
    }
    try container.register(Gauge.self, scope: .transient, Gauge.init(_:))
    let handle = try container.handle(Gauge.self)
    let made = Locked<[ObjectIdentifier]>([])
    let kept = Locked<[Gauge]>([])
    let errors = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      var mine: [Gauge] = []
      for _ in 0..<700 {
        do {
          mine.append(try handle.resolve())
        } catch {
          errors.add(1, ordering: .relaxed)
        }
      }
      made.withLock { $0 += mine.map(ObjectIdentifier.init) }
      kept.withLock { $0 += mine }
    }
    #expect(errors.load(ordering: .relaxed) == 0)
    #expect(runs["storage"] == 1)
    #expect(Set(made.withLock { $0 }).count == 2_800)
    let storage = try container.resolve(Storage.self)
    #expect(kept.withLock { $0 }.allSatisfy { $0.storage === storage })
    // Every making counted, past the first 1,024 not every one timed.
    let record = try #require(container.launchReport().transients.first { $0.service == "Gauge" })
    #expect(record.count == 2_800)
    #expect(record.timed >= 1_024 && record.timed < 2_800)
  }

  @Test func theReportCountsEveryMakingAndTimesTheFirstThenOneIn64() throws {
    let clock = ManualClock()
    let container = Container(scheduler: ManualScheduler(), clock: clock)
    try container.register(Storage.self) { Storage() }
    try container.register(Gauge.self, scope: .transient) { (storage: Storage) in
      clock.advance(by: .nanoseconds(5))
      return Gauge(storage)
    }
    let handle = try container.handle(Gauge.self)
    for _ in 0..<(1_024 + 640) { _ = try handle.resolve() }
    let record = try #require(container.launchReport().transients.first { $0.service == "Gauge" })
    #expect(record.count == 1_664)
    // The first 1,024 timed (the first two by the ordinary path), then one in 64 of the rest.
    #expect(record.timed == 1_034)
    // What was timed, and only that: never scaled up to the count.
    #expect(record.total == .nanoseconds(5 * 1_034))
    #expect(record.max == .nanoseconds(5))
    #expect(record.median == .nanoseconds(5))
    let report = container.launchReport()
    #expect(try LaunchReport(json: report.json()).transients == report.transients)
    #expect(report.json().contains("\"timedCount\":1034"))
    #expect(report.text().contains("1664 (1034 timed)"))
    // A plain resolve outside any build makes it at once too: counted, sampled alike.
    for _ in 0..<10 { _ = try container.resolve(Gauge.self) }
    let after = try #require(container.launchReport().transients.first { $0.service == "Gauge" })
    #expect(after.count == 1_674 && after.timed == 1_034)
  }

  @Test func withRecordingOffMakingsAtOnceRecordNothing() throws {
    let container = Container(recording: .off)
    try container.register(Storage.self) { Storage() }
    try container.register(Gauge.self, scope: .transient, Gauge.init(_:))
    let handle = try container.handle(Gauge.self)
    for _ in 0..<5 { _ = try handle.resolve() }
    #expect(handle.node.makesAtOnce)
    #expect(container.launchReport().transients.isEmpty)
  }

  @Test func anAsyncTransientIsAwaitedThroughItsHandleNeverMadeAtOnce() async throws {
    let container = Container()
    try container.register(Storage.self) { Storage() }
    try container.register(Gauge.self, scope: .transient) { () async throws -> Gauge in
      Gauge(Storage(label: "async"))
    }
    let handle = try container.handle(Gauge.self)
    let error = #expect(throws: DeferredError.self) { try handle.resolve() }
    #expect(error?.code == .asyncService)
    let first = try await handle.awaitService()
    let second = try await handle.awaitService()
    #expect(first !== second && first.storage.label == "async")
    #expect(!handle.node.makesAtOnce)
  }
}
