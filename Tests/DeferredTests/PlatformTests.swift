import DeferredReports
import Dispatch
import Foundation
import Testing

@testable import Deferred

/// A clock whose wall and CPU readings the test sets: what the report must show.
final class ScriptedClock: LaunchClock {
  private let readings = Locked((wall: UInt64(1_000_000), cpu: UInt64(7_000)))
  let processStart: ProcessStart

  init(
    processStart: ProcessStart = ProcessStart(nanoseconds: 400_000, source: .clock, precision: 0)
  ) {
    self.processStart = processStart
  }

  func now() -> UInt64 { readings.withLock { $0.wall } }

  func threadCPUTime() -> UInt64? { readings.withLock { $0.cpu } }

  /// Moves the wall clock by `wall` and the CPU clock by `cpu`.
  func advance(wall: Duration, cpu: Duration) {
    readings.withLock {
      $0.wall += wall.nanoseconds
      $0.cpu += cpu.nanoseconds
    }
  }
}

/// A signpost instrument that counts what it was asked for.
final class CountingInstrument: SignpostInstrument {
  let isEnabled: Bool
  private let names = Locked<[String]>([])

  init(enabled: Bool) { isEnabled = enabled }

  var recorded: [String] { names.withLock { $0 } }

  func beginInterval(named name: String) -> String {
    names.withLock { $0.append(name) }
    return name
  }

  func endInterval(_ interval: String) {}

  func event(named name: String) { names.withLock { $0.append(name) } }
}

/// What differs between Apple platforms and Linux, through the seams that let a test here drive
/// each: the clock, the process start of a prewarmed process, signposts, and the quality of
/// service of an async caller's build.
@Suite struct PlatformTests {
  /// The monotonic clock reads nanoseconds: a clock of microsecond resolution (Darwin's
  /// `CLOCK_MONOTONIC`) reads only multiples of 1,000.
  @Test func theMonotonicClockReadsNanoseconds() {
    let clock = MonotonicClock()
    var readings: [UInt64] = []
    for _ in 0..<1_000 { readings.append(clock.now()) }
    #expect(zip(readings, readings.dropFirst()).allSatisfy { $0 <= $1 })
    #expect(readings.contains { $0 % 1_000 != 0 })
  }

  /// A build's start, duration and CPU time are the injected clock's readings, and the process
  /// start is its own.
  @Test func theReportTakesEveryTimeFromTheInjectedClock() throws {
    let clock = ScriptedClock()
    let container = Container(
      scheduler: ManualScheduler(), clock: clock, recording: .timingsAndCPU)
    try container.register(Storage.self) {
      clock.advance(wall: .milliseconds(5), cpu: .milliseconds(2))
      return Storage()
    }
    _ = try container.resolve(Storage.self)
    let report = container.launchReport()
    #expect(report.processStart == .clock)
    #expect(report.processStartKind == .launch)
    let build = try #require(report.builds.first { $0.service == "Storage" })
    #expect(build.start == .microseconds(600))
    #expect(build.duration == .milliseconds(5))
    #expect(build.cpu == .milliseconds(2))
  }

  /// `ActivePrewarm=1`: the system started the process ahead of the launch, so the start is
  /// the first use of Deferred, not what the operating system says.
  @Test func aPrewarmedProcessCountsFromTheFirstUseOfDeferred() {
    let start = ProcessStart.resolve(
      environment: { $0 == "ActivePrewarm" ? "1" : "5" }, firstUse: 42,
      operatingSystem: {
        Issue.record("a prewarmed process's start was read from the operating system")
        return nil
      })
    #expect(start == ProcessStart(nanoseconds: 42, source: .clock, precision: 0, kind: .prewarmed))
  }

  /// Without prewarming, the launcher's handover comes first, then the operating system's
  /// figure, then the first use.
  @Test func aProcessLaunchedByTheUserCountsFromItsStart() {
    let system = ProcessStart(nanoseconds: 10, source: .operatingSystem, precision: 1_000)
    let launched = ProcessStart.resolve(
      environment: { $0 == "ActivePrewarm" ? "0" : nil }, firstUse: 42,
      operatingSystem: { system })
    #expect(launched == system && launched.kind == .launch)
    let handedOver = ProcessStart.resolve(
      environment: { $0 == "DEFERRED_SPAWN_NS" ? "7" : nil }, firstUse: 42,
      operatingSystem: { system })
    #expect(handedOver == ProcessStart(nanoseconds: 7, source: .handover, precision: 1_000))
    let unknown = ProcessStart.resolve(
      environment: { _ in nil }, firstUse: 42, operatingSystem: { nil })
    #expect(unknown == ProcessStart(nanoseconds: 42, source: .unknown, precision: 0))
  }

  /// The report says a start was a prewarmed process's first use, in its text and its JSON,
  /// and reads it back; a launch's JSON is as it was.
  @Test func theReportSaysTheStartWasPrewarmed() throws {
    let prewarmed = ProcessStart(
      nanoseconds: 400_000, source: .clock, precision: 0, kind: .prewarmed)
    let container = Container(
      scheduler: ManualScheduler(), clock: ScriptedClock(processStart: prewarmed))
    let report = container.launchReport()
    #expect(report.processStartKind == .prewarmed)
    #expect(report.text().hasPrefix("Milestones (process start the clock's start; prewarmed"))
    let json = report.json()
    #expect(json.contains(#""processStart":{"kind":"prewarmed","precisionNs":0,"source":"clock"}"#))
    #expect(try LaunchReport(json: json) == report)
    let decoded = try JSONDecoder().decode(LaunchReport.self, from: JSONEncoder().encode(report))
    #expect(decoded == report)

    let launch = Container(scheduler: ManualScheduler(), clock: ScriptedClock()).launchReport()
    #expect(launch.json().contains(#""processStart":{"precisionNs":0,"source":"clock"}"#))
    #expect(try LaunchReport(json: launch.json()).processStartKind == .launch)
  }

  /// With no instrument listening, a build's signpost makes nothing: not even the key's
  /// description.
  @Test func signpostsMakeNothingWhileNoInstrumentListens() {
    let off = CountingInstrument(enabled: false)
    let interval = Signposts.begin(on: off) {
      Issue.record("a description was made for an instrument that does not listen")
      return "Storage"
    }
    #expect(interval == nil)
    Signposts.emit(on: off) {
      Issue.record("a milestone's name was made for an instrument that does not listen")
      return "firstFrame"
    }
    #expect(off.recorded.isEmpty)

    let on = CountingInstrument(enabled: true)
    #expect(Signposts.begin(on: on) { "Storage" } == "Storage")
    Signposts.emit(on: on) { "firstFrame" }
    #expect(on.recorded == ["Storage", "firstFrame"])
  }

  /// Swift concurrency's priorities are Dispatch's classes.
  @Test func aTaskPriorityMapsToItsDispatchClass() {
    #expect(DispatchQoS.QoSClass(.high) == .userInitiated)
    #expect(DispatchQoS.QoSClass(.userInitiated) == .userInitiated)
    #expect(DispatchQoS.QoSClass(.medium) == .default)
    #expect(DispatchQoS.QoSClass(.low) == .utility)
    #expect(DispatchQoS.QoSClass(.utility) == .utility)
    #expect(DispatchQoS.QoSClass(.background) == .background)
    #expect(DispatchQoS.QoSClass(TaskPriority(rawValue: 33)) == .userInteractive)
  }

  /// An async caller's build off the cooperative pool runs at the caller's priority, not
  /// always at `.userInitiated`. (Linux reports a `.low` or `.background` task's priority as
  /// `.medium`: the build follows what the task reports.)
  @Test(arguments: [TaskPriority.background, .low, .medium, .high])
  func anAsyncCallersBuildRunsAtItsPriority(priority: TaskPriority) async throws {
    let chosen = Locked<[DispatchQoS.QoSClass]>([])
    let reported = Locked<TaskPriority?>(nil)
    let value = try await Task.detached(priority: priority) {
      reported.withLock { $0 = Task.currentPriority }
      return try await offThePool(
        chain: [],
        queue: { qos in
          chosen.withLock { $0.append(qos) }
          return DispatchQueue.global(qos: qos)
        }
      ) { _ throws(DeferredError) in 7 }
    }.value
    #expect(value == 7)
    let priorityReported = try #require(reported.withLock { $0 })
    #expect(chosen.withLock { $0 } == [DispatchQoS.QoSClass(priorityReported)])
    if priority == .medium { #expect(chosen.withLock { $0 } == [.default]) }
    if priority == .high { #expect(chosen.withLock { $0 } == [.userInitiated]) }
  }
}
