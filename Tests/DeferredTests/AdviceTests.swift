import DeferredReports
import Foundation
import Testing

@testable import Deferred

final class Lexicon: Sendable {}
final class Shelf: Sendable { init(_: Lexicon) {} }
final class Journal: Sendable {}
final class Ledger: Sendable {}
final class Courier: Sendable {}
final class Desk: Sendable {}

/// Advice and the prediction under the manual clock: every figure exact.
@Suite struct AdviceTests {
  /// Registers `type` with `priority`, its factory taking `cost` on the manual clock.
  static func register<Value: Sendable>(
    _ type: Value.Type, _ priority: Priority, _ cost: Duration, in container: Container,
    clock: ManualClock, _ make: @escaping @Sendable () -> Value
  ) throws {
    try container.register(type, priority: priority) {
      clock.advance(by: cost)
      return make()
    }
  }

  /// Each kind but the chain and the main thread's wait, from one launch.
  @Test func eachKindFromALaunch() throws {
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let container = Container(scheduler: scheduler, clock: clock)
    try Self.register(Desk.self, .critical, .milliseconds(5), in: container, clock: clock) {
      Desk()
    }
    // Shelf needs Lexicon; nothing before the first frame needs either.
    try container.register(Shelf.self, priority: .critical) { (lexicon: Lexicon) in
      clock.advance(by: .milliseconds(30))
      return Shelf(lexicon)
    }
    try Self.register(Lexicon.self, .critical, .milliseconds(20), in: container, clock: clock) {
      Lexicon()
    }
    try Self.register(Journal.self, .critical, .milliseconds(8), in: container, clock: clock) {
      Journal()
    }
    try Self.register(
      Ledger.self, .afterFirstFrame(), .milliseconds(12), in: container, clock: clock
    ) { Ledger() }
    try Self.register(Courier.self, .onDemand, .milliseconds(25), in: container, clock: clock) {
      Courier()
    }
    try container.launch()
    _ = try container.resolve(Desk.self)
    _ = try container.resolve(Courier.self)
    try container.firstFrameDrawn()
    scheduler.runAll()
    _ = try container.resolve(Shelf.self)
    let report = container.launchReport()
    #expect(report.firstFrameUses == ["Courier", "Desk"])
    #expect(report.unusedServices == ["Journal", "Ledger"])
    let ms = Duration.milliseconds(1)
    let summary = report.advice.map { ($0.kind, $0.service, $0.suggestion, $0.saving, $0.effect) }
    #expect(summary.count == 5)
    #expect(summary[0] == (.deferCritical, "Shelf", .afterFirstFrame(), ms * 30, .firstFrame))
    #expect(summary[1] == (.deferCritical, "Lexicon", .afterFirstFrame(), ms * 20, .firstFrame))
    #expect(summary[2] == (.deferCritical, "Journal", .onDemand, ms * 8, .firstFrame))
    #expect(
      summary[3] == (.deferFirstFrameBuild, "Courier", .afterFirstFrame(), ms * 25, .firstFrame))
    #expect(summary[4] == (.makeOnDemand, "Ledger", .onDemand, ms * 12, .background))
    #expect(report.advice == report.advise())
    #expect(
      report.text().contains("deferCritical Shelf → afterFirstFrame(utility): saves 30.00 ms"))
  }

  /// What the app itself used before the first frame stays critical, even when the service
  /// that needs it is deferred.
  @Test func whatTheAppUsedStaysCritical() throws {
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let container = Container(scheduler: scheduler, clock: clock)
    try container.register(Shelf.self, priority: .critical) { (lexicon: Lexicon) in
      clock.advance(by: .milliseconds(3))
      return Shelf(lexicon)
    }
    try Self.register(Lexicon.self, .critical, .milliseconds(4), in: container, clock: clock) {
      Lexicon()
    }
    try Self.register(Desk.self, .critical, .milliseconds(1), in: container, clock: clock) {
      Desk()
    }
    try container.launch()
    // The app uses Lexicon itself, before the first frame: only Shelf can go.
    _ = try container.resolve(Lexicon.self)
    _ = try container.resolve(Desk.self)
    try container.firstFrameDrawn()
    let advice = container.launchReport().advice
    #expect(advice.map(\.service) == ["Shelf"])
    #expect(advice.first?.suggestion == .onDemand)
  }

  @Test func aWellSetUpLaunchHasNoAdvice() throws {
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let container = Container(scheduler: scheduler, clock: clock)
    try Self.register(Desk.self, .critical, .milliseconds(5), in: container, clock: clock) {
      Desk()
    }
    try Self.register(
      Ledger.self, .afterFirstFrame(), .milliseconds(40), in: container, clock: clock
    ) { Ledger() }
    try container.launch()
    _ = try container.resolve(Desk.self)
    try container.firstFrameDrawn()
    scheduler.runAll()
    _ = try container.resolve(Ledger.self)
    let report = container.launchReport()
    #expect(report.advice == [])
    #expect(!report.text().contains("Advice"))
  }

  /// The chain before the first frame, with builds longer than a frame: what shortening each
  /// to a frame saves.
  @Test func criticalChainLongerThanAFrame() throws {
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let container = Container(scheduler: scheduler, clock: clock)
    try container.register(Shelf.self, priority: .critical) { (lexicon: Lexicon) in
      clock.advance(by: .milliseconds(20))
      return Shelf(lexicon)
    }
    try Self.register(Lexicon.self, .critical, .milliseconds(25), in: container, clock: clock) {
      Lexicon()
    }
    try Self.register(Desk.self, .critical, .milliseconds(2), in: container, clock: clock) {
      Desk()
    }
    try container.launch()
    _ = try container.resolve(Shelf.self)
    _ = try container.resolve(Desk.self)
    try container.firstFrameDrawn()
    let advice = container.launchReport().advice
    #expect(advice.count == 1)
    let chain = try #require(advice.first)
    #expect(chain.kind == .criticalChain && chain.chain == ["Shelf", "Lexicon"])
    // (20 − 16.666667) + (25 − 16.666667) ms.
    #expect(chain.saving == .nanoseconds(3_333_333 + 8_333_333))
    #expect(chain.suggestion == nil && chain.effect == .firstFrame)
  }

  /// The main thread's waits, from a report's facts: `userInitiated` for a build queued at a
  /// lower quality of service (saving at most its queueing), critical otherwise.
  @Test func mainThreadWaitsRaiseThePriority() {
    let ms = Duration.milliseconds(1)
    func build(
      _ service: String, _ qos: BuildQoS, queued: Duration, start: Duration, duration: Duration,
      waited: Duration
    ) -> BuildRecord {
      BuildRecord(
        service: service, priority: .afterFirstFrame(qos), trigger: .scheduled,
        thread: "worker", isMainThread: false, qos: qos, queued: queued, start: start,
        duration: duration, selfDuration: duration, waited: waited, waiters: ["main"],
        outcome: .built, attempt: 1)
    }
    func wait(_ service: String, _ duration: Duration) -> Hazard {
      Hazard(kind: .mainThreadWait, service: service, detail: "", duration: duration)
    }
    let report = LaunchReport(
      processStart: .clock, processStartPrecision: .zero,
      milestones: [
        Milestone(.processStart, at: .zero), Milestone(.launchBegan, at: .zero),
        Milestone(.criticalReady, at: ms), Milestone(.firstFrame, at: ms * 10),
        Milestone(.fullyReady, at: ms * 100),
      ],
      builds: [
        build("Net", .utility, queued: ms * 4, start: ms * 12, duration: ms * 20, waited: ms * 6),
        build(
          "Img", .userInitiated, queued: ms, start: ms * 40, duration: ms * 10, waited: ms * 3),
        build("Late", .utility, queued: ms, start: ms * 200, duration: ms * 10, waited: ms * 3),
      ],
      hazards: [wait("Net", ms * 6), wait("Img", ms * 3), wait("Late", ms * 3)],
      firstFrameUses: [], unusedServices: [])
    let advice = report.advise()
    #expect(advice.count == 2)  // Late's wait came after the launch was fully ready
    #expect(advice[0].service == "Net" && advice[0].suggestion == .afterFirstFrame(.userInitiated))
    #expect(advice[0].saving == ms * 4 && advice[0].effect == .mainThread)
    #expect(advice[1].service == "Img" && advice[1].suggestion == .critical)
    #expect(advice[1].saving == ms * 3 && advice[1].cost == ms * 10)
  }

  /// An eager launch of three services, and the deferred launch its advice predicts.
  @Test func predictionOfTheDeferredLaunch() throws {
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let container = Container(scheduler: scheduler, clock: clock)
    try Self.register(Desk.self, .critical, .milliseconds(10), in: container, clock: clock) {
      Desk()
    }
    try container.register(Shelf.self, priority: .critical) { (lexicon: Lexicon) in
      clock.advance(by: .milliseconds(30))
      return Shelf(lexicon)
    }
    try Self.register(Lexicon.self, .critical, .milliseconds(20), in: container, clock: clock) {
      Lexicon()
    }
    clock.advance(by: .milliseconds(5))
    try container.launch()
    _ = try container.resolve(Desk.self)
    clock.advance(by: .milliseconds(2))
    try container.firstFrameDrawn()
    _ = try container.resolve(Shelf.self)
    let report = container.launchReport()
    #expect(report.offset(of: .firstFrame) == .milliseconds(67))
    #expect(report.advice.map(\.service) == ["Shelf", "Lexicon"])
    let prediction = try #require(report.predictDeferred(workers: 2))
    // 67 ms less Shelf's 30 and Lexicon's 20.
    #expect(prediction.firstFrame == .milliseconds(17))
    // Then Shelf → Lexicon, 50 ms, one after the other (50 ms over 2 workers would be 25).
    #expect(prediction.fullyReady == .milliseconds(67))
    #expect(prediction.moved == ["Lexicon", "Shelf"])
    #expect(prediction.explanation.count == 2)
    let single = try #require(report.predictDeferred(applying: [report.advice[0]], workers: 1))
    #expect((single.firstFrame, single.fullyReady) == (.milliseconds(37), .milliseconds(67)))
  }

  /// Advice survives the JSON and `Codable` round trips; a document without it still reads.
  @Test func adviceRoundTripsAndOldDocumentsRead() throws {
    var report = RenderingTests.report
    report.advice = [
      Advice(
        kind: .raisePriority, service: "Network", priority: .idle(after: .milliseconds(1_500)),
        suggestion: .afterFirstFrame(.userInitiated), saving: .milliseconds(3),
        effect: .mainThread, cost: .milliseconds(2), chain: ["a", "b"], detail: "d")
    ]
    #expect(try LaunchReport(json: report.json()) == report)
    #expect(try JSONDecoder().decode(LaunchReport.self, from: Data(report.json().utf8)) == report)
    let encoded = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
    #expect(try LaunchReport(json: encoded) == report)
    // Version 1 documents written before these fields.
    var older = try #require(
      try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
    for field in ["advice", "firstFrameUses", "unusedServices"] { older[field] = nil }
    let olderText = String(
      decoding: try JSONSerialization.data(withJSONObject: older), as: UTF8.self)
    var expected = report
    (expected.advice, expected.firstFrameUses, expected.unusedServices) = ([], [], [])
    #expect(try LaunchReport(json: olderText) == expected)
    #expect(try JSONDecoder().decode(LaunchReport.self, from: Data(olderText.utf8)) == expected)
  }
}
