import DeferredReports
import Dispatch
import Synchronization
import Testing

@testable import Deferred

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

final class Fonts: Sendable {}
final class Catalog: Sendable { init(_: Parser) {} }
final class Parser: Sendable {}
final class Formatter: Sendable {}
private final class Outer: Sendable {}
private final class Dropped: Sendable {}
private final class Built: Sendable {}
private final class Broken: Sendable {}
private final class Made: Sendable {}

@Suite struct RecordingTests {
  static let ms = Duration.milliseconds(1)

  /// A launch whose every cost is set by advancing the manual clock inside the factories.
  static func launch() throws -> (Container, ManualScheduler) {
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let container = Container(scheduler: scheduler, clock: clock)
    try container.register(Fonts.self, priority: .afterFirstFrame()) {
      clock.advance(by: .milliseconds(4))
      return Fonts()
    }
    try container.register(Theme.self, priority: .critical) { (_: Fonts) in
      clock.advance(by: .milliseconds(30))
      return Theme()
    }
    try container.register(Storage.self, priority: .critical) {
      clock.advance(by: .milliseconds(10))
      return Storage()
    }
    try container.register(Network.self, priority: .afterFirstFrame()) {
      clock.advance(by: .milliseconds(20))
      return Network()
    }
    try container.register(Parser.self) {
      clock.advance(by: .milliseconds(7))
      return Parser()
    }
    try container.register(Catalog.self) { resolver in
      clock.advance(by: .milliseconds(2))
      let parser = try resolver.resolve(Parser.self)
      clock.advance(by: .milliseconds(3))
      return Catalog(parser)
    }
    try container.register(Formatter.self, scope: .transient) {
      clock.advance(by: .milliseconds(1))
      return Formatter()
    }
    clock.advance(by: .milliseconds(5))
    try container.launch()
    clock.advance(by: .milliseconds(2))
    try container.firstFrameDrawn()
    clock.advance(by: .milliseconds(3))
    scheduler.runAll()
    _ = try container.resolve(Catalog.self)
    for _ in 0..<3 { _ = try container.resolve(Formatter.self) }
    return (container, scheduler)
  }

  @Test func figuresAreExactUnderTheManualClock() throws {
    let (container, _) = try Self.launch()
    let report = container.launchReport()
    let ms = Self.ms
    #expect(report.processStart == .clock)
    #expect(
      report.milestones == [
        Milestone(.processStart, at: .zero), Milestone(.launchBegan, at: .milliseconds(5)),
        Milestone(.criticalReady, at: .milliseconds(49)),
        Milestone(.firstFrame, at: .milliseconds(51)),
        Milestone(.fullyReady, at: .milliseconds(74)),
      ])
    #expect(report.criticalPhase == .milliseconds(44))
    let byService = Dictionary(uniqueKeysWithValues: report.builds.map { ($0.service, $0) })
    #expect(
      report.builds.map(\.service) == ["Fonts", "Theme", "Storage", "Network", "Catalog", "Parser"])

    let fonts = try #require(byService["Fonts"])
    #expect(fonts.trigger == .launch)
    #expect(fonts.requestedBy == "Theme")
    #expect(fonts.priority == .afterFirstFrame(.utility))
    #expect(
      (fonts.start, fonts.duration, fonts.selfDuration) == (
        .milliseconds(5), .milliseconds(4), .milliseconds(4)
      ))
    #expect(fonts.cpu == nil)
    #expect(fonts.attempt == 1)

    let theme = try #require(byService["Theme"])
    // Theme declares Fonts: its build began when it was claimed, before Fonts was built for it,
    // so its inclusive time covers Fonts, as a resolver closure's would.
    #expect(
      (theme.start, theme.duration, theme.selfDuration)
        == (.milliseconds(5), .milliseconds(34), .milliseconds(30)))
    #expect(theme.requestedBy == nil)
    #expect(theme.qos == nil && theme.queued == nil)

    let network = try #require(byService["Network"])
    #expect(network.trigger == .scheduled)
    #expect(network.qos == .utility)
    #expect(network.queued == .milliseconds(3))
    #expect((network.start, network.duration) == (.milliseconds(54), .milliseconds(20)))

    let catalog = try #require(byService["Catalog"])
    #expect(catalog.trigger == .onDemand)
    #expect((catalog.duration, catalog.selfDuration) == (.milliseconds(12), .milliseconds(5)))
    let parser = try #require(byService["Parser"])
    #expect(parser.requestedBy == "Catalog")
    #expect((parser.start, parser.duration) == (.milliseconds(76), .milliseconds(7)))

    #expect(
      report.transients == [
        TransientRecord(
          service: "Formatter", count: 3, total: .milliseconds(3), median: ms, max: ms)
      ])
    #expect(report.dependencies["Theme"] == ["Fonts"])
    #expect(report.dependencies["Catalog"] == ["Parser"])
  }

  /// Nested time is the inclusive time of the builds and makings that ran inside a build: a
  /// transient made inside it counts; a build claimed inside it and then dropped, because what
  /// it declares failed, counts as no one's (its dependencies' time is then the outer build's
  /// own), whatever the records of those dependencies say.
  @Test func droppedBuildsAreNoOnesNestedTime() throws {
    let clock = ManualClock()
    let container = Container(scheduler: ManualScheduler(), clock: clock)
    try container.register(Built.self) {
      clock.advance(by: .milliseconds(3))
      return Built()
    }
    try container.register(Broken.self) { () throws -> Broken in
      clock.advance(by: .milliseconds(2))
      throw Failure(message: "broken")
    }
    try container.register(Dropped.self) { (_: Built, _: Broken) in Dropped() }
    try container.register(Made.self, scope: .transient) {
      clock.advance(by: .milliseconds(1))
      return Made()
    }
    try container.register(Outer.self) { resolver in
      #expect(throws: DeferredError.self) { try resolver.resolve(Dropped.self) }
      _ = try resolver.resolve(Made.self)
      clock.advance(by: .milliseconds(1))
      return Outer()
    }
    _ = try container.resolve(Outer.self)
    let report = container.launchReport()
    #expect(report.builds.map(\.service) == ["Built", "Outer", "Broken"])
    let byService = Dictionary(uniqueKeysWithValues: report.builds.map { ($0.service, $0) })
    let outer = try #require(byService["Outer"])
    #expect((outer.duration, outer.selfDuration) == (.milliseconds(7), .milliseconds(6)))
    let built = try #require(byService["Built"])
    #expect(
      (built.duration, built.selfDuration, built.requestedBy) == (
        .milliseconds(3), .milliseconds(3), "Dropped"
      ))
    let broken = try #require(byService["Broken"])
    #expect((broken.duration, broken.outcome) == (.milliseconds(2), .failed))
  }

  @Test func hazardsAreNamed() throws {
    let (container, _) = try Self.launch()
    let report = container.launchReport(criticalShareLimit: 0.5)
    #expect(report.hazards.map(\.kind) == [.promoted, .unusedWarmUp, .largeShare])
    #expect(
      report.hazards[0].detail
        == "Fonts (afterFirstFrame(utility)) was built before the first frame because Theme needs it."
    )
    #expect(
      report.hazards[1].detail == "Network was built in the background but nothing has used it yet."
    )
    #expect(
      report.hazards[2].detail
        == "Theme took 30.00 ms, 68% of the critical phase (more than 50%).")
    _ = try container.resolve(Network.self)
    #expect(!container.launchReport().hazards.contains { $0.kind == .unusedWarmUp })
  }

  @Test func failedDeferredBuildNobodyAskedForIsAHazard() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Network.self, priority: .afterFirstFrame()) {
      throw Failure(message: "offline")
    }
    try container.launch()
    try container.firstFrameDrawn()
    scheduler.runAll()
    let report = container.launchReport()
    #expect(report.builds.map(\.outcome) == [.failed])
    #expect(report.builds.first?.error?.contains("offline") == true)
    #expect(report.hazards.map(\.kind) == [.unaskedFailure])
    _ = try? container.resolve(Network.self)
    let later = container.launchReport()
    #expect(later.builds.map(\.attempt) == [1, 2])
    #expect(!later.hazards.contains { $0.kind == .unaskedFailure })
  }

  @MainActor @Test func waitsAreRecordedAgainstTheBuild() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    let started = Signal()
    let release = Signal()
    try container.register(Storage.self) {
      started.fire()
      release.wait()
      return Storage()
    }
    let waiting = Signal()
    container.onWait { _ in waiting.fire() }
    let done = Signal()
    Thread.detach {
      _ = try? container.resolve(Storage.self)
      done.fire()
    }
    started.wait()
    Thread.detach {
      waiting.wait()
      scheduler.clock.advance(by: .milliseconds(8))
      release.fire()
    }
    _ = try container.resolve(Storage.self)
    done.wait()
    let report = container.launchReport()
    let build = try #require(report.builds.first)
    #expect(build.waited == .milliseconds(8))
    #expect(build.waiters.count == 1)
    // Swift Testing runs @MainActor tests on the main thread: the wait is a hazard.
    if ThreadInfo.current().isMain {
      #expect(build.waiters == ["main"])
      #expect(report.hazards.map(\.kind) == [.mainThreadWait])
      #expect(
        report.hazards.first?.detail
          == "The main thread waited 8.00 ms for Storage, which another thread was building.")
      #expect(report.check(LaunchBudget(mainThreadWaits: false)).map(\.rule) == [.mainThreadWaits])
    }
  }

  @Test func transientMakingsAreAllCountedPastTheSampleLimitAndFromManyThreads() throws {
    let clock = ManualClock()
    let container = Container(scheduler: ManualScheduler(), clock: clock)
    // Made from four threads at once, each making taking no time on the manual clock.
    try container.register(Formatter.self, scope: .transient) { Formatter() }
    // Made on one thread, each making taking 1 ms, the 1,472nd 3 ms and the 1,500th 5 ms:
    // past the first 1,024, which are all timed, one making in 64 is (the 1,472nd is, the
    // 1,500th is not).
    let slow = 1_500
    let made = Atomic<Int>(0)
    try container.register(Parser.self, scope: .transient) {
      let count = made.wrappingAdd(1, ordering: .relaxed).newValue
      clock.advance(by: .milliseconds(count == 1_472 ? 3 : count == slow ? 5 : 1))
      return Parser()
    }
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<700 { _ = try? container.resolve(Formatter.self) }
    }
    for _ in 0..<slow { _ = try container.resolve(Parser.self) }
    let byService = Dictionary(
      uniqueKeysWithValues: container.launchReport().transients.map { ($0.service, $0) })
    // Every making counted, from every thread.
    let formatter = try #require(byService["Formatter"])
    #expect(formatter.count == 2_800)
    #expect(formatter.timed >= 1_024 && formatter.timed < 2_800)
    #expect(formatter.total == .zero && formatter.max == .zero)
    // The timed makings only, never scaled up: the untimed 5 ms making is in no figure.
    #expect(
      byService["Parser"]
        == TransientRecord(
          service: "Parser", count: slow, timed: 1_024 + (slow - 1_024) / 64,
          total: .milliseconds(1_030 + 3), median: Self.ms, max: .milliseconds(3)))
  }

  @Test func recordingCanBeTurnedOff() throws {
    let container = Container(recording: .off)
    try container.register(Storage.self) { Storage() }
    _ = try container.resolve(Storage.self)
    #expect(container.launchReport().builds.isEmpty)
  }

  @Test func budgetsNameTheRecordsThatBrokeThem() throws {
    let (container, _) = try Self.launch()
    let report = container.launchReport()
    #expect(
      report.check(
        LaunchBudget(
          firstFrame: .milliseconds(60), criticalPhase: .milliseconds(50),
          criticalInitializer: .milliseconds(30), mainThreadWaits: false)
      ).isEmpty)
    let broken = report.check(
      LaunchBudget(
        firstFrame: .milliseconds(50), criticalPhase: .milliseconds(40),
        criticalInitializer: .milliseconds(8)))
    #expect(broken.map(\.rule) == [.firstFrame, .criticalPhase, .criticalInitializer])
    #expect(broken[2].services == ["Theme", "Storage"])
    #expect(
      broken[0].description
        == "firstFrame: 51.00 ms is over the budget of 50.00 ms (Theme, Storage, Fonts).")
  }

  @Test func jsonRoundTrips() throws {
    let (container, _) = try Self.launch()
    let report = container.launchReport()
    #expect(try LaunchReport(json: report.json()) == report)
    #expect(try LaunchReport(json: report.json(pretty: true)) == report)
    #expect(throws: JSONError.self) { try LaunchReport(json: "{\"schema\": \"other\"}") }
    #expect(throws: JSONError.self) { try LaunchReport(json: "{\"schema\": ") }
  }
}

/// Starts a thread that is not one of Swift Testing's or Dispatch's.
enum Thread {
  static func detach(_ body: @escaping @Sendable () -> Void) {
    Dispatch.DispatchQueue.global().async(execute: body)
  }
}

@Suite struct ThreadInfoTests {
  /// A worker thread is named by its own name and its kernel thread id, never as `main`.
  @Test func workerThreadsAreNamedWithTheirThreadID() async throws {
    let info = await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: ThreadInfo.current()) }
    }
    #expect(!info.isMain)
    let id = try #require(info.name.split(separator: "(").last?.dropLast())
    let tid = try #require(Int64(id))
    #expect(tid > 0 && tid != Int64(getpid()))
    #expect(info.name.hasSuffix("(\(tid))"))
  }

  /// A worker thread's own name is read, beside the id the kernel knows it by.
  @Test func aWorkerThreadsOwnNameIsRead() throws {
    let seen = Locked<(info: ThreadInfo, tid: Int)?>(nil)
    onThread(stackSize: 512 * 1024) {
      nameCurrentThread("deferred-probe")
      seen.withLock { $0 = (ThreadInfo.current(), currentThreadID()) }
    }
    let (info, tid) = try #require(seen.withLock { $0 })
    #expect(tid > 0)
    #expect(info == ThreadInfo(isMain: false, name: "deferred-probe (\(tid))"))
  }
}

/// Names the calling thread `name`.
private func nameCurrentThread(_ name: String) {
  #if canImport(Darwin)
    pthread_setname_np(name)
  #else
    // The thread's name, as the kernel keeps it (`pthread_setname_np` is not in the Glibc module).
    let file = open("/proc/thread-self/comm", O_WRONLY)
    guard file >= 0 else { return }
    defer { close(file) }
    var bytes = Array(name.utf8)
    _ = write(file, &bytes, bytes.count)
  #endif
}

/// The kernel's id of the calling thread, read as the test's own check of the library's.
private func currentThreadID() -> Int {
  #if canImport(Darwin)
    var tid: UInt64 = 0
    pthread_threadid_np(nil, &tid)
    return Int(tid)
  #else
    // "/proc/thread-self" links to "<pid>/task/<tid>".
    var link = [CChar](repeating: 0, count: 64)
    let count = readlink("/proc/thread-self", &link, link.count)
    let text = String(
      decoding: link.prefix(max(count, 0)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.split(separator: "/").last.flatMap { Int($0) } ?? 0
  #endif
}

@Suite struct ProcessStartTests {
  @Test func monotonicProcessStartIsInThePast() {
    let clock = MonotonicClock()
    let start = clock.processStart
    #expect(start.nanoseconds <= clock.now())
    #expect([.handover, .operatingSystem].contains(start.source))
    // The test process has not been running for a day.
    #expect(clock.now() - start.nanoseconds < 86_400 * 1_000_000_000)
    #expect(clock.threadCPUTime() != nil)
  }
}
