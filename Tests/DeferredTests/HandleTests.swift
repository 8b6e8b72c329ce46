import Dispatch
import Synchronization
import Testing

@testable import Deferred

@Suite struct HandleTests {
  @Test func aHandleMadeBeforeTheBuildBuildsOnFirstReadThenReadsTheSameInstance() throws {
    let container = Container()
    let runs = Runs()
    try container.register(Storage.self) {
      runs.tick("storage")
      return Storage()
    }
    try container.register(Network.self) { Network() }
    try container.register(SyncService.self, SyncService.init(storage:network:))
    let sync = try container.handle(SyncService.self)
    #expect(runs["storage"] == 0)
    #expect(sync.description == "SyncService")
    let first = try sync.resolve()
    #expect(runs["storage"] == 1)
    #expect(try sync.resolve() === first)
    #expect(sync.require() === first)
    #expect(try container.resolve(SyncService.self) === first)
    #expect(try container.handle(Storage.self).resolve() === first.storage)
    // A first read records its build, as a resolve does.
    #expect(container.launchReport().builds.map(\.service).contains("SyncService"))
  }

  @Test func aHandleByKeyReadsItsNamedRegistration() throws {
    let container = Container()
    let cache = ServiceKey<Storage>(name: "cache")
    try container.register(Storage.self) { Storage() }
    try container.register(cache) { Storage(label: "cache") }
    let handle = try container.handle(for: cache)
    #expect(handle.key == cache)
    #expect(handle.description == "Storage[\"cache\"]")
    #expect(try handle.resolve().label == "cache")
    #expect(try container.handle(Storage.self, name: "cache").resolve() === handle.resolve())
  }

  /// How a test reads a handle: a copy (`resolve()`), or in place (`withValue`).
  enum Read: CaseIterable, Sendable {
    case resolve, withValue

    func identity<Value: AnyObject & Sendable>(_ handle: ServiceHandle<Value>) throws
      -> ObjectIdentifier
    {
      switch self {
      case .resolve: ObjectIdentifier(try handle.resolve())
      case .withValue: try handle.withValue { ObjectIdentifier($0) }
      }
    }
  }

  @Test(arguments: Read.allCases)
  func manyThreadsReadingAHandleDuringTheBuildShareOneBuild(_ form: Read) throws {
    let container = Container()
    let runs = Runs()
    let started = Signal()
    let release = Signal()
    try container.register(Storage.self) {
      runs.tick("storage")
      started.fire()
      release.wait()
      return Storage()
    }
    let handle = try container.handle(Storage.self)
    let waiting = Signal()
    container.onWait { _ in waiting.fire() }
    let readers = 4
    let seen = Locked<[ObjectIdentifier]>([])
    let group = DispatchGroup()
    let read: @Sendable () -> Void = {
      if let identity = try? form.identity(handle) { seen.withLock { $0.append(identity) } }
    }
    // Threads of their own: five blocked at once would starve Dispatch's pool on a small
    // machine (the readers would never start, and other tests' queues would wait too).
    startThread(in: group, read)
    started.wait()
    // The factory is blocked: every other reader waits for that build.
    for _ in 0..<readers { startThread(in: group, read) }
    for _ in 0..<readers { waiting.wait() }
    #expect(seen.withLock { $0.isEmpty })
    release.fire()
    group.wait()
    let identities = seen.withLock { $0 }
    #expect(identities.count == readers + 1)
    #expect(Set(identities).count == 1)
    #expect(runs["storage"] == 1)
    #expect(identities.first == ObjectIdentifier(try container.resolve(Storage.self)))
  }

  @Test func aHandleFromAChildReadsTheChildsOverrideAndItsOwnCopies() throws {
    let parent = Container()
    let runs = Runs()
    try parent.register(Storage.self) { Storage() }
    try parent.register(Network.self) { Network() }
    try parent.register(SyncService.self) { (storage: Storage, network: Network) in
      runs.tick("sync")
      return SyncService(storage: storage, network: network)
    }
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    let childSync = try child.handle(SyncService.self)
    let parentSync = try parent.handle(SyncService.self)
    #expect(try childSync.resolve().network.online == false)
    #expect(try child.handle(Network.self).resolve().online == false)
    #expect(try parentSync.resolve().network.online)
    #expect(try parent.handle(Network.self).resolve().online)
    #expect(try childSync.resolve() !== parentSync.resolve())
    // Read in place, each handle reads its own container's instance.
    #expect(try childSync.withValue { $0.network.online } == false)
    #expect(try parentSync.withValue { $0.network.online })
    #expect(try childSync.withValue(ObjectIdentifier.init) == ObjectIdentifier(childSync.resolve()))
    #expect(
      try parentSync.withValue(ObjectIdentifier.init) == ObjectIdentifier(parentSync.resolve()))
    // Storage needs no override: the child's handle reads the parent's instance.
    #expect(try child.handle(Storage.self).resolve() === parentSync.resolve().storage)
    #expect(try childSync.resolve().storage === parentSync.resolve().storage)
    #expect(runs["sync"] == 2)
  }

  @Test func aHandleToAReplacedRegistrationReadsTheReplacementNeverTheOldOne() throws {
    let container = Container()
    let runs = Runs()
    try container.register(Storage.self) {
      runs.tick("old")
      return Storage(label: "old")
    }
    let handle = try container.handle(Storage.self)
    try container.register(Storage.self, replacing: true) {
      runs.tick("new")
      return Storage(label: "new")
    }
    let storage = try handle.resolve()
    #expect(storage.label == "new")
    #expect(try handle.resolve() === storage)
    #expect(try container.resolve(Storage.self) === storage)
    #expect(try container.handle(Storage.self).resolve() === storage)
    #expect(runs["old"] == 0)
    #expect(runs["new"] == 1)
    // Once built, it can no longer be replaced: no handle can hold a value gone stale.
    let error = #expect(throws: DeferredError.self) {
      try container.register(Storage.self, replacing: true) { Storage(label: "newer") }
    }
    #expect(error?.code == .registrationTooLate)
    #expect(try handle.resolve() === storage)
  }

  @Test func aHandleToATransientServiceBuildsOnEveryRead() throws {
    let container = Container()
    let runs = Runs()
    try container.register(Storage.self) { Storage() }
    try container.register(Network.self, scope: .transient) {
      runs.tick("network")
      return Network()
    }
    let handle = try container.handle(Network.self)
    let first = try handle.resolve()
    let second = try handle.resolve()
    #expect(first !== second)
    #expect(handle.require() !== second)
    #expect(runs["network"] == 3)
  }

  @Test func aHandleToAMissingServiceIsAnErrorNamingIt() throws {
    let container = Container()
    try container.register(Storage.self) { Storage() }
    let error = #expect(throws: DeferredError.self) { try container.handle(Network.self) }
    #expect(error?.code == .missingService)
    #expect(error?.service == "Network")
    #expect(error?.chain == ["Network"])
    let named = #expect(throws: DeferredError.self) {
      try container.handle(Storage.self, name: "cach")
    }
    #expect(named?.code == .missingService)
    #expect(named?.service == "Storage[\"cach\"]")
  }

  @Test func aHandleFailsAsResolveDoesAndTriesAgain() throws {
    let container = Container()
    let fails = Atomic<Bool>(true)
    try container.register(Storage.self) {
      if fails.load(ordering: .relaxed) { throw Failure(message: "disk full") }
      return Storage()
    }
    let handle = try container.handle(Storage.self)
    let error = #expect(throws: DeferredError.self) { try handle.resolve() }
    #expect(error?.code == .factoryFailed)
    #expect(error?.service == "Storage")
    fails.store(false, ordering: .relaxed)
    #expect(try handle.resolve() === container.resolve(Storage.self))
  }

  @Test func afterShutDownAHandleThrowsEvenForABuiltService() throws {
    let container = Container()
    try container.register(Storage.self) { Storage() }
    try container.register(Network.self) { Network() }
    let built = try container.handle(Storage.self)
    let unbuilt = try container.handle(Network.self)
    _ = try built.resolve()
    container.shutDown()
    for read in [{ _ = try built.resolve() }, { _ = try unbuilt.resolve() }] {
      let error = #expect(throws: DeferredError.self) { try read() }
      #expect(error?.code == .shutDown)
    }
    let late = #expect(throws: DeferredError.self) { try container.handle(Storage.self) }
    #expect(late?.code == .shutDown)
  }

  @Test func aChildsHandleToAnInheritedServiceFailsOnceItsParentShutsDown() throws {
    let parent = Container()
    try parent.register(Storage.self) { Storage() }
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    let storage = try child.handle(Storage.self)
    let network = try child.handle(Network.self)
    _ = try storage.resolve()
    _ = try network.resolve()
    parent.shutDown()
    let error = #expect(throws: DeferredError.self) { try storage.resolve() }
    #expect(error?.code == .shutDown)
    // Its own registrations do not need the parent, as with resolve.
    #expect(try network.resolve().online == false)
  }

  @Test func withValueBeforeTheBuildBuildsOnceThenReadsTheBuiltInstanceInPlace() throws {
    let container = Container()
    let runs = Runs()
    try container.register(Storage.self) {
      runs.tick("storage")
      return Storage(label: "built")
    }
    try container.register(Settings.self) {
      runs.tick("settings")
      return Settings(label: "dark")
    }
    let storage = try container.handle(Storage.self)
    let settings = try container.handle(Settings.self)
    #expect(runs["storage"] == 0 && runs["settings"] == 0)
    // Not built: resolved as `require` does, then handed to the body.
    let first = try storage.withValue { ObjectIdentifier($0) }
    #expect(runs["storage"] == 1)
    #expect(first == ObjectIdentifier(try container.resolve(Storage.self)))
    #expect(try storage.withValue { ObjectIdentifier($0) } == first)
    #expect(try storage.withValue(\.label) == "built")
    // A struct service reads through the general form.
    #expect(try settings.withValue(\.label) == "dark")
    #expect(try settings.withValue(\.label) == "dark")
    #expect(runs["storage"] == 1 && runs["settings"] == 1)
  }

  @Test func withValueThrowsTheResolvesTypedErrorAndDoesNotCallTheBody() throws {
    let container = Container()
    let runs = Runs()
    try container.register(Network.self) { () throws -> Network in
      runs.tick("network")
      throw Failure(message: "offline")
    }
    try container.register(Storage.self) { Storage() }
    try container.register(SyncService.self, SyncService.init(storage:network:))
    let sync = try container.handle(SyncService.self)
    let error = #expect(throws: DeferredError.self) {
      try sync.withValue { _ in runs.tick("body") }
    }
    #expect(error?.code == .factoryFailed)
    #expect(error?.service == "Network")
    #expect(error?.chain == ["SyncService", "Network"])
    #expect((error?.underlying as? Failure)?.message == "offline")
    #expect(runs["network"] == 1 && runs["body"] == 0)
  }

  @Test func aHandleToANamedScopeNeverReadsADroppedGeneration() throws {
    let container = Container()
    let made = Counter()
    try container.register(Session.self, scope: .session) { Session(made.next()) }
    try container.register(Inbox.self, Inbox.init(session:))
    let session = try container.handle(Session.self)
    let inbox = try container.handle(Inbox.self)
    #expect(try session.resolve().number == 1)
    #expect(try session.withValue(\.number) == 1)
    #expect(try inbox.withValue(\.session.number) == 1)
    weak let old = try session.resolve()
    #expect(container.reset(.session) == ["Inbox", "Session"])
    // The old generation is gone, and the handles read the next one, built once.
    #expect(old == nil)
    #expect(try session.withValue(\.number) == 2)
    #expect(try session.resolve().number == 2)
    #expect(try inbox.withValue(\.session.number) == 2)
    #expect(try inbox.resolve().session === session.resolve())
    #expect(made.count == 2)
  }

  @Test func aHandleToAWeakServiceReadsTheLiveObjectAndBuildsAnewOnceLetGo() throws {
    let container = Container()
    let made = Counter()
    try container.register(Numbered.self, scope: .weak) { Numbered(made.next()) }
    let handle = try container.handle(Numbered.self)
    weak var first: Numbered?
    do {
      let held = try handle.resolve()
      first = held
      #expect(try handle.withValue { $0 === held })
      #expect(made.count == 1)
    }
    // The last holder let go: no read hands out the old object.
    #expect(first == nil)
    #expect(try handle.withValue(\.number) == 2)
    #expect(try handle.resolve().number == 3)
    #expect(made.count == 3)
  }

  @Test func anAsyncServiceIsAwaitedThroughItsHandleThenReadSynchronously() async throws {
    let container = Container()
    let runs = Runs()
    try container.register(Network.self) { () async in
      runs.tick("network")
      await Task.yield()
      return Network()
    }
    let handle = try container.handle(Network.self)
    let early = #expect(throws: DeferredError.self) { try handle.resolve() }
    #expect(early?.code == .asyncService)
    let network = try await handle.awaitService()
    #expect(try handle.resolve() === network)
    #expect(try await handle.awaitService() === network)
    #expect(runs["network"] == 1)
  }

  @MainActor @Test func aMainActorModelReadsAMainActorServiceThroughItsHandle() async throws {
    @MainActor final class Model {
      let storage: ServiceHandle<Storage>
      init(container: Container) throws { storage = try container.handle(Storage.self) }
      var label: String { storage.require().label }
    }
    let container = Container()
    let builtOnMain = Atomic<Bool>(false)
    try container.registerMainActor(Storage.self) { () in
      builtOnMain.store(MainThread.isCurrent, ordering: .relaxed)
      return Storage(label: "main")
    }
    let model = try Model(container: container)
    #expect(model.label == "main")
    let onMain = builtOnMain.load(ordering: .relaxed)
    #expect(onMain)
    #expect(try await model.storage.awaitService() === model.storage.resolve())
  }
}

/// A service that is a struct: read through ``ServiceHandle/withValue(_:)``'s general form.
private struct Settings: Sendable {
  let label: String
}
