import DeferredReports
import Testing

@testable import Deferred

final class CrashReporter: Sendable {}
final class KeyValueStore: Sendable {}
final class FeatureFlags: Sendable { init(_: KeyValueStore) {} }
final class Bookmarks: Sendable { init(_: FeatureFlags) {} }

/// The messages a user reads: errors, warnings and the text report, word for word.
@Suite struct MessageTests {
  @Test func launchingTwiceNamesTheContainerAndWhatToDo() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.launch()
    let twice = #expect(throws: DeferredError.self) { try container.launch() }
    #expect(twice?.code == .launchOrder)
    #expect(
      twice?.description
        == "launch() was called again on this container, which launches once: call launch()"
        + " once, as the app starts, then firstFrameDrawn(); a launch of its own (a test's)"
        + " needs a new container.")
  }

  @Test func launchingAChildTwiceNamesWhereItWasMade() throws {
    let child = Container(scheduler: ManualScheduler()).makeChild(
      fileID: "App/Tests.swift", line: 7)
    try child.launch()
    let twice = #expect(throws: DeferredError.self) { try child.launch() }
    #expect(
      twice?.description.hasPrefix(
        "launch() was called again on the child container made at App/Tests.swift:7,") == true)
  }

  @Test func launchingAfterAShutdownSaysItIsFinal() throws {
    let container = Container(scheduler: ManualScheduler())
    container.shutDown()
    let error = #expect(throws: DeferredError.self) { try container.launch() }
    #expect(
      error?.description
        == "launch() was called on this container, which was shut down: a shutdown is final,"
        + " so launch a new container instead.")
  }

  @Test func aCycleIsNamedOnce() throws {
    final class A: Sendable { init(_: B) {} }
    final class B: Sendable { init(_: A) {} }
    let container = Container()
    try container.register(A.self, A.init)
    try container.register(B.self, B.init)
    let error = #expect(throws: DeferredError.self) { try container.resolve(A.self) }
    #expect(
      error?.description
        == "Dependency cycle: A → B → A. Break the loop: let one of these services resolve the"
        + " other lazily, when first used.")
  }

  @Test func aCycleReachedFromOutsideSaysWhereItWasEntered() throws {
    final class A: Sendable { init(_: B) {} }
    final class B: Sendable { init(_: A) {} }
    final class Root: Sendable { init(_: A) {} }
    let container = Container()
    try container.register(A.self, A.init)
    try container.register(B.self, B.init)
    try container.register(Root.self, Root.init)
    let error = #expect(throws: DeferredError.self) { try container.resolve(Root.self) }
    #expect(error?.cycle == ["A", "B", "A"])
    #expect(
      error?.description.hasPrefix("Dependency cycle: A → B → A, entered from Root → A.") == true)
  }

  @Test func aCriticalServiceThatNeedsADeferredOneSaysItOnce() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(KeyValueStore.self, priority: .onDemand) { KeyValueStore() }
    try container.register(FeatureFlags.self, priority: .critical, FeatureFlags.init)
    #expect(
      container.validate().map(\.message) == [
        "FeatureFlags is critical but needs KeyValueStore, whose priority is onDemand:"
          + " KeyValueStore is built before the first frame too. Make it critical, or let"
          + " FeatureFlags resolve it later."
      ])
  }

  @Test func anIndirectNeedSaysTheWay() throws {
    let keys = [
      AnyServiceKey(Bookmarks.self, name: nil), AnyServiceKey(FeatureFlags.self, name: nil),
      AnyServiceKey(KeyValueStore.self, name: nil),
    ]
    let error = DeferredError(
      .criticalNeedsDeferred, key: keys[2], chain: keys, detail: "onDemand")
    #expect(
      error.description
        == "Bookmarks is critical but needs KeyValueStore (through Bookmarks → FeatureFlags →"
        + " KeyValueStore), whose priority is onDemand: KeyValueStore is built before the first"
        + " frame too. Make it critical, or let Bookmarks resolve it later.")
  }

  /// A build on a Dispatch worker of the Linux runtime, whose thread name keeps only the last
  /// 15 characters of `com.apple.root.utility-qos`.
  static func reportWithAWorker(advice: [Advice] = []) -> LaunchReport {
    LaunchReport(
      processStart: .clock, processStartPrecision: .zero,
      milestones: [
        Milestone(.processStart, at: .zero), Milestone(.firstFrame, at: .milliseconds(5)),
      ],
      builds: [
        BuildRecord(
          service: "Conversions", priority: .afterFirstFrame(.utility), trigger: .scheduled,
          thread: "oot.utility-qos (16814)", isMainThread: false, qos: .utility,
          start: .milliseconds(5), duration: .milliseconds(20),
          selfDuration: .milliseconds(20), outcome: .built, attempt: 1)
      ], advice: advice)
  }

  @Test func theThreadColumnNamesADispatchWorkerByItsQuality() throws {
    let text = Self.reportWithAWorker().text()
    #expect(text.contains("utility queue (16814)"))
    #expect(!text.contains("oot.utility-qos"))
  }

  @Test func theTextShowsTheAdviceThatAdviseShows() throws {
    let big = Advice(
      kind: .makeOnDemand, service: "Conversions", priority: .afterFirstFrame(),
      suggestion: .onDemand, saving: .milliseconds(20), effect: .background,
      detail: "Conversions was built for nothing.")
    let tiny = Advice(
      kind: .makeOnDemand, service: "Tips", priority: .afterFirstFrame(),
      suggestion: .onDemand, saving: .microseconds(40), effect: .background,
      detail: "Tips was built for nothing.")
    let text = Self.reportWithAWorker(advice: [big, tiny]).text()
    #expect(Advice.worthShowing([big, tiny]) == [big])
    #expect(text.contains("makeOnDemand Conversions"))
    #expect(!text.contains("Tips"))
    #expect(text.contains("Advice (estimated savings; 1 saving 0.1 ms or less left out):"))
  }

  /// A critical crash reporter that nothing resolves, with and without the mark.
  static func crashReporterAdvice(marked: Bool) throws -> [Advice] {
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let container = Container(scheduler: scheduler, clock: clock)
    try container.register(CrashReporter.self, priority: .critical) {
      clock.advance(by: .milliseconds(10))  // under a frame: no chain to shorten
      return CrashReporter()
    }
    if marked { try container.markBuiltForSideEffects(CrashReporter.self) }
    try container.launch()
    try container.firstFrameDrawn()
    scheduler.runAll()
    return container.launchReport().advice
  }

  @Test func aServiceBuiltForItsSideEffectsIsNotAdvisedToMove() throws {
    #expect(try Self.crashReporterAdvice(marked: false).map(\.kind) == [.deferCritical])
    #expect(try Self.crashReporterAdvice(marked: true).isEmpty)
  }

  @Test func markingAMissingServiceNamesIt() throws {
    let container = Container()
    let error = #expect(throws: DeferredError.self) {
      try container.markBuiltForSideEffects(CrashReporter.self)
    }
    #expect(error?.code == .missingService)
    #expect(error?.service == "CrashReporter")
  }
}
