import Dispatch
import Synchronization
import Testing

@testable import Deferred

@MainActor final class KeypadModel {
  let storage: Storage
  var presses = 0
  init(storage: Storage) {
    MainActor.assertIsolated()
    self.storage = storage
  }
}

@MainActor final class Banner {
  init() { MainActor.assertIsolated() }
}

/// Needs a main-actor service that needs it back.
final class Sync2: Sendable { init(_: Loop) {} }
@MainActor final class Loop { init(_: Sync2) {} }

/// A main-actor service, and a service that needs it (issue 25's loop through the main queue).
@MainActor final class MainModel { init() {} }
final class NeedsMain: Sendable {}

/// A resolve on another thread that needs a main-actor service: started, and returned once
/// that thread is waiting for the main actor.
final class BackgroundResolve<Value: Sendable>: Sendable {
  private let value = Locked<Result<Value, DeferredError>?>(nil)
  private let done = Signal()

  init(_ type: Value.Type, in container: Container, waitingFor service: String) {
    let waiting = Signal()
    container.onWait { event in
      if event.service == service { waiting.fire() }
    }
    Thread.detach { [value, done] in
      value.withLock {
        $0 = Result { () throws(DeferredError) in try container.resolve(Value.self) }
      }
      done.fire()
    }
    waiting.wait()
  }

  /// What the thread got, once it has.
  func result() throws -> Result<Value, DeferredError> {
    done.wait()
    return try #require(value.withLock { $0 })
  }
}

@Suite struct MainActorTests {
  @MainActor @Test func aMainActorServiceResolvedOnTheMainActorIsBuiltThere() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(Storage.self) { Storage() }
    try container.registerMainActor(KeypadModel.self, KeypadModel.init(storage:))
    let model = try container.resolve(KeypadModel.self)
    #expect(try container.resolve(KeypadModel.self) === model)
    let build = try #require(container.launchReport().builds.first { $0.service == "KeypadModel" })
    #expect(build.thread == "main" && build.isMainThread)
  }

  @MainActor @Test func aBackgroundResolveOfAnUnbuiltMainActorServiceWaitsForTheMainActor() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Storage.self) { Storage() }
    try container.registerMainActor(KeypadModel.self, KeypadModel.init(storage:))
    let background = BackgroundResolve(
      KeypadModel.self, in: container, waitingFor: "KeypadModel")
    // The build waits for its turn of the main queue: nothing ran it yet.
    #expect(scheduler.queuedOnMain == ["build KeypadModel on main"])
    #expect(scheduler.runMainNext())
    let model = try background.result().get()
    #expect(try container.resolve(KeypadModel.self) === model)
    #expect(scheduler.queuedOnMain.isEmpty)
  }

  @MainActor @Test func aMainAndBackgroundCycleFailsWithTheChainInsteadOfHanging() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Sync2.self, Sync2.init)
    try container.registerMainActor(Loop.self, Loop.init)
    let background = BackgroundResolve(Sync2.self, in: container, waitingFor: "Loop")
    // The main actor builds Loop, which needs Sync2, which the background thread holds while
    // it waits for the main actor: the wait that would close the loop fails at once.
    #expect(scheduler.runMainNext())
    let result = try background.result()
    #expect(throws: DeferredError.self) { try result.get() }
    guard case .failure(let error) = result else { return }
    #expect(error.code == .cycle)
    #expect(error.chain.first == "Sync2")
    #expect(Set(error.cycle) == ["Sync2", "Loop"])
    // Nothing was cached: resolved on the main actor, the same loop is a same-thread cycle.
    let again = #expect(throws: DeferredError.self) { try container.resolve(Loop.self) }
    #expect(again?.code == .cycle)
  }

  /// Whatever thread drains the main queue (on Linux under `swift test` or `dispatchMain()`, a
  /// worker thread), code on it is "main" for the wait-for graph: a main-queue resolve waiting
  /// for a build that waits for the main actor is a loop, named at once.
  @MainActor @Test func aMainQueueResolveWaitingForABuildThatWaitsForTheMainActorFailsAtOnce()
    throws
  {
    let scheduler = ManualScheduler()
    // The limit bounds the wait should the loop go unseen: a timeout, not a hang.
    let container = Container(
      scheduler: scheduler, clock: scheduler.clock, waitLimit: .seconds(20))
    try container.registerMainActor(MainModel.self) { MainModel() }
    try container.register(NeedsMain.self) { (_: MainModel) in NeedsMain() }
    // Another thread builds NeedsMain and waits for the main actor to build MainModel.
    let background = BackgroundResolve(NeedsMain.self, in: container, waitingFor: "MainModel")
    let error = #expect(throws: DeferredError.self) { try container.resolve(NeedsMain.self) }
    #expect(error?.code == .cycle)
    #expect(error?.cycle == ["NeedsMain", "MainModel", "NeedsMain"])
    // The main actor is free again: its turn builds MainModel, and the other thread gets its
    // NeedsMain.
    #expect(scheduler.runMainNext())
    let built = try background.result().get()
    #expect(try container.resolve(NeedsMain.self) === built)
  }

  /// Issue 25's loop with the real scheduler: a resolve on another thread builds NeedsMain and
  /// sends MainModel's build to the main queue, behind a main-queue block that resolves
  /// NeedsMain. The block's wait closes the loop and fails; then the main queue builds
  /// MainModel, and the other thread gets NeedsMain. (Bounded: a hang fails the test after a
  /// minute.)
  @Test func theMainQueueAndAMainActorBuildDoNotWaitForEachOther() throws {
    let container = Container()
    try container.registerMainActor(MainModel.self) { MainModel() }
    try container.register(NeedsMain.self) { (_: MainModel) in NeedsMain() }
    let waiting = Signal()
    container.onWait { if $0.service == "MainModel" { waiting.fire() } }
    let onMain = Locked<Result<NeedsMain, DeferredError>?>(nil)
    let mainDone = DispatchSemaphore(value: 0)
    DispatchQueue.main.async {
      waiting.wait()
      onMain.withLock {
        $0 = Result { () throws(DeferredError) in try container.resolve(NeedsMain.self) }
      }
      mainDone.signal()
    }
    let background = Locked<Result<NeedsMain, DeferredError>?>(nil)
    let backgroundDone = DispatchSemaphore(value: 0)
    Thread.detach {
      background.withLock {
        $0 = Result { () throws(DeferredError) in try container.resolve(NeedsMain.self) }
      }
      backgroundDone.signal()
    }
    guard mainDone.wait(timeout: .now() + .seconds(60)) == .success,
      backgroundDone.wait(timeout: .now() + .seconds(60)) == .success
    else {
      Issue.record("the main queue and the main-actor build waited for each other")
      return
    }
    let error = #expect(throws: DeferredError.self) { try onMain.withLock { $0 }?.get() }
    #expect(error?.code == .cycle)
    #expect(error?.cycle == ["NeedsMain", "MainModel", "NeedsMain"])
    let built = try #require(try background.withLock { $0 }?.get())
    #expect(try container.resolve(NeedsMain.self) === built)
  }

  /// Code on the main queue builds with the main actor's context, whatever thread drains it:
  /// its builds are recorded on the main thread.
  @MainActor @Test func aBuildOnTheMainQueueIsRecordedOnTheMainThread() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(Storage.self) { Storage() }
    _ = try container.resolve(Storage.self)
    let build = try #require(container.launchReport().builds.first { $0.service == "Storage" })
    #expect(build.thread == "main" && build.isMainThread)
  }

  /// The main actor waits second (the other thread waits for it first, then it waits, in the
  /// middle of a build of its own, for that thread's build): the loop named is the whole loop,
  /// as when it waits first, and the chain is the main actor's.
  @MainActor @Test func aMainActorLoopClosedByTheMainActorNamesTheWholeLoop() throws {
    let scheduler = ManualScheduler()
    let container = Container(
      scheduler: scheduler, clock: scheduler.clock, waitLimit: .seconds(20))
    try container.registerMainActor(MainModel.self) { MainModel() }
    try container.register(NeedsMain.self) { (_: MainModel) in NeedsMain() }
    try container.register(Storage.self) { (_: NeedsMain) in Storage() }
    let background = BackgroundResolve(NeedsMain.self, in: container, waitingFor: "MainModel")
    let error = #expect(throws: DeferredError.self) { try container.resolve(Storage.self) }
    #expect(error?.chain == ["Storage", "NeedsMain"])
    #expect(error?.cycle == ["NeedsMain", "MainModel", "NeedsMain"])
    #expect(error?.description.contains("NeedsMain → MainModel → NeedsMain") == true)
    #expect(scheduler.runMainNext())
    _ = try background.result().get()
  }

  /// `shutDown()` on the main actor waits for the builds under way; one of them waits for the
  /// main actor to build a service: the shutdown fails that wait instead of both waiting
  /// forever. (Run on the main queue from another thread, which bounds the wait: a hang fails
  /// the test after a minute.)
  @Test func shuttingDownOnTheMainActorWhileABuildWaitsForTheMainActorDoesNotHang() async throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    let runs = Runs()
    try container.registerMainActor(MainModel.self) {
      runs.tick("MainModel")
      return MainModel()
    }
    try container.register(NeedsMain.self, priority: .afterFirstFrame()) { (_: MainModel) in
      NeedsMain()
    }
    try container.launch()
    try container.firstFrameDrawn()
    #expect(scheduler.queued == ["build NeedsMain"])
    // The scheduled build, on another thread, waits for the main actor to build MainModel.
    let waiting = Signal()
    container.onWait { if $0.service == "MainModel" { waiting.fire() } }
    let ran = Signal()
    Thread.detach {
      scheduler.runNext()
      ran.fire()
    }
    waiting.wait()
    let shutDown = DispatchSemaphore(value: 0)
    DispatchQueue.main.async {
      container.shutDown()
      shutDown.signal()
    }
    guard shutDown.wait(timeout: .now() + .seconds(60)) == .success else {
      Issue.record("shutDown() on the main actor waited forever for a build waiting for it")
      return
    }
    ran.wait()
    let report = container.launchReport()
    let build = try #require(report.builds.first { $0.service == "NeedsMain" })
    #expect(build.outcome == .failed)
    // The main actor's turn comes after all: the failed wait's build does not run.
    #expect(await MainActor.run { scheduler.runMainNext() })
    #expect(runs["MainModel"] == 0)
    let error = #expect(throws: DeferredError.self) { try container.resolve(NeedsMain.self) }
    #expect(error?.code == .shutDown)
  }

  @Test func launchOffTheMainActorWithACriticalMainActorServiceIsAClearError() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.registerMainActor(Banner.self, priority: .critical) { Banner() }
    let error = #expect(throws: DeferredError.self) { try container.launch() }
    #expect(error?.code == .mainActorRequired)
    #expect(
      error?.description
        == "Banner is a main-actor service: launch() builds it, so call launch() on the main"
        + " actor.")
  }

  @MainActor @Test func launchOnTheMainActorBuildsCriticalMainActorServices() throws {
    let container = Container(scheduler: ManualScheduler())
    let runs = Runs()
    try container.registerMainActor(Banner.self, priority: .critical) {
      runs.tick("Banner")
      return Banner()
    }
    try container.launch()
    #expect(runs["Banner"] == 1)
  }

  @MainActor @Test func deferredMainActorServicesTakeTheMainLaneOneBuildATurn() throws {
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let container = Container(scheduler: scheduler, clock: clock)
    try container.register(Storage.self, priority: .afterFirstFrame()) { Storage() }
    try container.registerMainActor(KeypadModel.self, priority: .afterFirstFrame()) {
      (storage: Storage) in
      clock.advance(by: .milliseconds(20))
      return KeypadModel(storage: storage)
    }
    try container.registerMainActor(Banner.self, priority: .afterFirstFrame()) { Banner() }
    try container.launch()
    try container.firstFrameDrawn()
    // Banner needs nothing: its turn comes at once; KeypadModel waits for Storage.
    #expect(scheduler.queued == ["build Storage"])
    #expect(scheduler.queuedOnMain == ["build Banner on main"])
    scheduler.runAll()
    // One main-lane build in flight at a time: KeypadModel waits behind Banner's turn.
    #expect(scheduler.queuedOnMain == ["build Banner on main"])
    #expect(scheduler.runMainNext())
    #expect(scheduler.queuedOnMain == ["build KeypadModel on main"])
    #expect(!container.isFullyReady)
    #expect(scheduler.runMainNext())
    #expect(container.isFullyReady)
    let report = container.launchReport()
    let keypad = try #require(report.builds.first { $0.service == "KeypadModel" })
    #expect(keypad.thread == "main" && keypad.trigger == .scheduled)
    #expect(report.hazards.map(\.kind).contains(.longMainLaneBuild))
    let banner = try #require(report.builds.first { $0.service == "Banner" })
    #expect(banner.thread == "main")
    #expect(!report.hazards.contains { $0.kind == .longMainLaneBuild && $0.service == "Banner" })
  }

  @Test func awaitingAMainActorServiceFromATaskBuildsItOnTheMainActor() async throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(Storage.self) { Storage() }
    try container.registerMainActor(KeypadModel.self, KeypadModel.init(storage:))
    let model = try await container.awaitService(KeypadModel.self)
    #expect(try container.resolve(KeypadModel.self) === model)
  }

  @Test func anAsyncMainActorFactoryRunsOnTheMainActor() async throws {
    let container = Container(scheduler: ManualScheduler())
    try container.registerMainActor(Banner.self) { () async in Banner() }
    let banner = try await container.awaitService(Banner.self)
    #expect(try container.resolve(Banner.self) === banner)
  }
}

/// A shutdown racing a build's wait for the main actor: nothing is built after `shutDown()`
/// returns, whichever thread shuts down and whatever the launch's phase.
extension MainActorTests {
  /// A container whose `NeedsMain` needs the main-actor `MainModel`, counting the builds of
  /// each.
  static func hopping(_ runs: Runs, scheduler: ManualScheduler) throws -> Container {
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.registerMainActor(MainModel.self) {
      runs.tick("MainModel")
      return MainModel()
    }
    try container.register(NeedsMain.self) { resolver in
      _ = try resolver.resolve(MainModel.self)
      runs.tick("NeedsMain")
      return NeedsMain()
    }
    return container
  }

  /// The main actor shuts down while a background resolve waits for its turn of the main
  /// queue (not launched: no scheduled build under way to wait for): the wait fails with
  /// `shutDown` at once, and the turn, when it comes, builds nothing.
  @MainActor @Test func aShutDownOnTheMainActorRefusesAWaitingHopBeforeItsTurn() throws {
    let runs = Runs()
    let scheduler = ManualScheduler()
    let container = try Self.hopping(runs, scheduler: scheduler)
    let background = BackgroundResolve(NeedsMain.self, in: container, waitingFor: "MainModel")
    #expect(scheduler.queuedOnMain == ["build MainModel on main"])
    container.shutDown()
    // The main queue's next turn: the hop's job runs, and builds nothing.
    #expect(scheduler.runMainNext())
    let result = try background.result()
    #expect(throws: DeferredError.self) { try result.get() }
    if case .failure(let error) = result { #expect(error.code == .shutDown) }
    #expect((runs["MainModel"], runs["NeedsMain"]) == (0, 0))
    let later = #expect(throws: DeferredError.self) { try container.resolve(MainModel.self) }
    #expect(later?.code == .shutDown)
  }

  /// The same from another thread than the main actor, and in a launched container.
  @MainActor @Test(arguments: [false, true])
  func aShutDownOffTheMainActorRefusesAWaitingHop(launched: Bool) throws {
    let runs = Runs()
    let scheduler = ManualScheduler()
    let container = try Self.hopping(runs, scheduler: scheduler)
    if launched {
      try container.launch()
      try container.firstFrameDrawn()
    }
    let background = BackgroundResolve(NeedsMain.self, in: container, waitingFor: "MainModel")
    let shutDown = Signal()
    startThread {
      container.shutDown()
      shutDown.fire()
    }
    shutDown.wait()
    while scheduler.runMainNext() {}
    let result = try background.result()
    if case .failure(let error) = result {
      #expect(error.code == .shutDown)
    } else {
      Issue.record("a service was built after shutDown(): \(result)")
    }
    #expect((runs["MainModel"], runs["NeedsMain"]) == (0, 0))
  }

  /// A child resolving its parent's main-actor service: the parent's shutdown refuses the
  /// hop.
  @MainActor @Test func aParentsShutDownRefusesAHopForAChildsResolve() throws {
    let runs = Runs()
    let scheduler = ManualScheduler()
    let parent = try Self.hopping(runs, scheduler: scheduler)
    let child = parent.makeChild()
    // The wait is told to the service's owner, the parent.
    let waiting = Signal()
    parent.onWait { event in
      if event.service == "MainModel" { waiting.fire() }
    }
    let result = Locked<Result<NeedsMain, DeferredError>?>(nil)
    let done = Signal()
    startThread {
      result.withLock {
        $0 = Result { () throws(DeferredError) in try child.resolve(NeedsMain.self) }
      }
      done.fire()
    }
    waiting.wait()
    parent.shutDown()
    while scheduler.runMainNext() {}
    done.wait()
    switch result.withLock({ $0 }) {
    case .failure(let error)?: #expect(error.code == .shutDown)
    case let other:
      Issue.record("a service was built after shutDown(): \(String(describing: other))")
    }
    #expect(runs["MainModel"] == 0)
  }
}
