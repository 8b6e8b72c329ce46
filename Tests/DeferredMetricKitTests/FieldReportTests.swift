import Deferred
import DeferredHistory
import DeferredMetricKit
import Foundation
import Testing

final class Short: Sendable {}
final class Head: Sendable {}
final class Tail: Sendable { init(_: Head) {} }

@Suite struct FieldReportTests {
  static func twoDays() throws -> [FieldPayload] {
    try FieldPayload.read(Fixtures.data("metric-payload-day1.json"))
      + FieldPayload.read(Fixtures.data("metric-payload-day2.json"))
  }

  /// A launch of this device: two builds, and its milestones.
  static let local = LaunchReport(
    processStart: .clock, processStartPrecision: .zero,
    milestones: [
      Milestone(.processStart, at: .zero), Milestone(.launchBegan, at: .milliseconds(100)),
      Milestone(.criticalReady, at: .milliseconds(150)),
      Milestone(.firstFrame, at: .milliseconds(160)),
      Milestone(.fullyReady, at: .milliseconds(400)),
    ],
    builds: [
      BuildRecord(
        service: "ThemeEngine", priority: .critical, trigger: .launch, thread: "main",
        isMainThread: true, start: .milliseconds(110), duration: .milliseconds(25),
        selfDuration: .milliseconds(20), outcome: .built, attempt: 1),
      BuildRecord(
        service: "Keypad", priority: .critical, trigger: .launch, thread: "main",
        isMainThread: true, start: .milliseconds(135), duration: .milliseconds(5),
        selfDuration: .milliseconds(5), outcome: .built, attempt: 1),
    ])

  @Test func servicesAreJoinedByNameFieldBesideThisDevice() throws {
    let report = FieldReport(payloads: try Self.twoDays(), local: Self.local)
    #expect(report.payloadCount == 2)
    #expect(report.launch[.timeToFirstDraw]?.count == 280)
    let rows = Dictionary(uniqueKeysWithValues: report.joined.map { ($0.name, $0) })
    #expect(rows["ThemeEngine"]?.field?.count == 280)
    #expect(rows["ThemeEngine"]?.local == .milliseconds(25))
    #expect(rows["Keypad"]?.field == nil)
    #expect(rows["Keypad"]?.local == .milliseconds(5))
    #expect(rows["Storage"]?.local == nil)
    #expect(report.foreignSignposts == 2)

    let text = report.text()
    #expect(
      text.hasPrefix(
        "Field: 2 payloads (2026-11-26 06:59:00 +0000 … 2026-11-27 06:59:00 +0000)\n"))
    let themeLine = try #require(text.split(separator: "\n").first { $0.contains("ThemeEngine") })
    #expect(themeLine.hasSuffix("25.0 ms"))
    #expect(themeLine.contains("280"))
    let firstDraw = try #require(
      text.split(separator: "\n").first { $0.contains("  time to first draw") })
    #expect(firstDraw.hasSuffix("160.0 ms"))
    #expect(text.contains("launchToFirstFrame"))
    #expect(text.contains("2 signpost metrics of other categories left out"))
  }

  @Test func servicesWhoseFieldCostGrewBetweenPayloadsAreNamed() throws {
    let report = FieldReport(payloads: try Self.twoDays())
    #expect(report.grown.map(\.service) == ["SyncService"])
    let growth = try #require(report.grown.first)
    #expect(growth.before < growth.after)
    #expect(growth.from == "2026-11-26 06:59:00 +0000")
    #expect(growth.to == "2026-11-27 06:59:00 +0000")
    #expect(report.text().contains("grew between payloads\n  SyncService: "))
    // One payload has nothing to compare; the same day twice has not grown.
    #expect(FieldReport(payloads: Array(try Self.twoDays().prefix(1))).grown.isEmpty)
    let day = try Self.twoDays()[0]
    #expect(FieldReport(payloads: [day, day]).grown.isEmpty)
  }

  @Test func theJSONCarriesTheJoinInNanoseconds() throws {
    let report = FieldReport(payloads: try Self.twoDays(), local: Self.local)
    struct Document: Decodable {
      struct Row: Decodable {
        var metric: String?
        var phase: String?
        var service: String?
        var count: Int?
        var p50Ns: Int64?
        var p90Ns: Int64?
        var localNs: Int64?
      }
      struct Grown: Decodable {
        var service: String
        var beforeNs: Int64
        var afterNs: Int64
      }
      var schema: String
      var payloads: Int
      var launch: [Row]
      var phases: [Row]
      var services: [Row]
      var grown: [Grown]
      var foreignSignposts: Int
    }
    let document = try JSONDecoder().decode(Document.self, from: Data(report.json().utf8))
    #expect(document.schema == FieldReport.jsonSchema)
    #expect(document.payloads == 2)
    #expect(document.launch.map(\.metric) == FieldLaunchMetric.allCases.map(\.rawValue))
    let extended = try #require(document.launch.first { $0.metric == "extendedLaunch" })
    #expect(extended.localNs == 400_000_000)
    #expect(extended.p50Ns == report.launch[.extendedLaunch]?.p50?.nanosecondsForTest)
    let theme = try #require(document.services.first { $0.service == "ThemeEngine" })
    #expect(theme.count == 280 && theme.localNs == 25_000_000)
    let keypad = try #require(document.services.first { $0.service == "Keypad" })
    #expect(keypad.count == nil && keypad.p50Ns == nil && keypad.localNs == 5_000_000)
    #expect(document.phases.map(\.phase) == ["launchToFirstFrame", "firstFrameToFullyReady"])
    #expect(document.grown.map(\.service) == ["SyncService"])
    #expect(document.foreignSignposts == 2)
    #expect(report.json(pretty: true).contains("\n  \"schema\""))
  }

  /// A fresh install orders its background builds by registration; seeded with the field's
  /// medians, the longest path goes first.
  @Test func fieldMediansSeedTheHistoryAndChangeTheOrderOfBackgroundBuilds() throws {
    func firstBuild(history: LaunchHistory) throws -> [String] {
      let scheduler = ManualScheduler()
      let container = Container(
        scheduler: scheduler, clock: scheduler.clock, maxConcurrentBuilds: 1, history: history)
      try container.register(Short.self, priority: .afterFirstFrame()) { Short() }
      try container.register(Head.self, priority: .afterFirstFrame()) { Head() }
      try container.register(Tail.self, priority: .afterFirstFrame(), Tail.init)
      try container.launch()
      try container.firstFrameDrawn()
      return scheduler.queued
    }
    #expect(try firstBuild(history: LaunchHistory()) == ["build Short"])

    func build(_ service: String, _ milliseconds: Int64) -> FieldPayload.Signpost {
      FieldPayload.Signpost(
        category: FieldSignposts.category(of: service), name: "build", count: 10,
        durations: FieldHistogram(buckets: [
          .init(
            start: .milliseconds(milliseconds), end: .milliseconds(milliseconds + 1), count: 10)
        ]))
    }
    let field = FieldReport(payloads: [
      FieldPayload(
        appVersion: "1",
        signposts: [build("Short", 2), build("Head", 30), build("Tail", 40)])
    ])
    let history = LaunchHistory()
    #expect(field.seed(history))
    #expect(history.typicalSelfTime(of: "Head") == .microseconds(30_500))
    #expect(try firstBuild(history: history) == ["build Head"])
    // A history that remembers a launch keeps its own costs.
    #expect(!field.seed(history))
    #expect(history.launchCount == 1)
    #expect(FieldReport(payloads: []).seed(LaunchHistory()) == false)
  }
}

extension Duration {
  var nanosecondsForTest: Int64 {
    components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
  }
}
