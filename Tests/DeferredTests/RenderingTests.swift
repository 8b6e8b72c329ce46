import DeferredReports
import Foundation
import Testing

@testable import Deferred

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Golden files for each rendering of one fixed launch. Run with `DEFERRED_UPDATE_GOLDEN=1` to
/// write them anew, then read the diff.
@Suite struct RenderingTests {
  static let ms = Duration.milliseconds(1)

  static let report: LaunchReport = {
    var report = facts
    report.advice = report.advise()
    return report
  }()

  /// The launch's facts, without the advice worked out from them.
  static let facts = LaunchReport(
    processStart: .handover, processStartPrecision: .microseconds(1),
    milestones: [
      Milestone(.processStart, at: .zero), Milestone(.launchBegan, at: .milliseconds(18)),
      Milestone(.criticalReady, at: .milliseconds(61)),
      Milestone(.firstFrame, at: .milliseconds(67)),
      Milestone(.fullyReady, at: .milliseconds(190)),
    ],
    builds: [
      BuildRecord(
        service: "Fonts", priority: .afterFirstFrame(.utility), trigger: .launch,
        requestedBy: "Theme", thread: "main", isMainThread: true, start: .milliseconds(18),
        duration: .milliseconds(6), selfDuration: .milliseconds(6), cpu: .milliseconds(5),
        outcome: .built, attempt: 1),
      BuildRecord(
        service: "Theme", priority: .critical, trigger: .launch, thread: "main",
        isMainThread: true, start: .milliseconds(24), duration: .milliseconds(30),
        selfDuration: .milliseconds(30),
        cpu: .milliseconds(29), outcome: .built, attempt: 1),
      BuildRecord(
        service: "Storage", priority: .critical, trigger: .launch, thread: "main",
        isMainThread: true, start: .milliseconds(54), duration: .milliseconds(7),
        selfDuration: .milliseconds(7), cpu: .milliseconds(2),
        outcome: .built, attempt: 1),
      BuildRecord(
        service: "Network", priority: .afterFirstFrame(.userInitiated), trigger: .scheduled,
        thread: "worker (101)", isMainThread: false, qos: .userInitiated, queued: ms / 2,
        start: .milliseconds(68), duration: .milliseconds(40), selfDuration: .milliseconds(40),
        cpu: .milliseconds(3),
        waited: .milliseconds(20), waiters: ["main", "Conversions on worker (102)"],
        outcome: .failed,
        error: "The factory of Network threw offline.", attempt: 1),
      BuildRecord(
        service: "Conversions", priority: .idle(after: .seconds(10)), trigger: .scheduled,
        thread: "worker (102)", isMainThread: false, qos: .utility, queued: .milliseconds(2),
        start: .milliseconds(70), duration: .milliseconds(120), selfDuration: .milliseconds(100),
        cpu: .milliseconds(118),
        outcome: .built, attempt: 1),
      BuildRecord(
        service: "Units \"SI\"", priority: .onDemand, trigger: .scheduled,
        requestedBy: "Conversions", thread: "worker (102)", isMainThread: false,
        start: .milliseconds(150), duration: .milliseconds(20), selfDuration: .milliseconds(20),
        cpu: .milliseconds(20),
        outcome: .built, attempt: 1),
    ],
    transients: [
      TransientRecord(
        service: "Formatter", count: 12, total: .milliseconds(3), median: ms / 5, max: ms)
    ],
    hazards: [
      Hazard(
        kind: .promoted, service: "Fonts",
        detail: "Fonts (afterFirstFrame(utility)) was built before the first frame because Theme"
          + " needs it.", duration: .milliseconds(6)),
      Hazard(
        kind: .mainThreadWait, service: "Network",
        detail: "The main thread waited 12.00 ms for Network, which another thread was building.",
        duration: .milliseconds(12)),
    ],
    dependencies: [
      "Theme": ["Fonts"], "Conversions": ["Units \"SI\"", "Storage"], "Network": ["Storage"],
    ], firstFrameUses: ["Storage", "Theme"], unusedServices: ["Conversions"])

  static func golden(_ name: String, _ actual: String) throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Golden").appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["DEFERRED_UPDATE_GOLDEN"] != nil {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try actual.write(to: url, atomically: true, encoding: .utf8)
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(actual == expected, "\(name) differs from its golden file")
  }

  @Test func text() throws {
    try Self.golden("report.txt", Self.report.text())
  }

  @Test func json() throws {
    try Self.golden("report.json", Self.report.json(pretty: true))
    #expect(try LaunchReport(json: Self.report.json()) == Self.report)
  }

  /// The `Codable` conformance and the renderer agree on the shape: each reads what the other
  /// writes back into an equal report.
  @Test func codableReadsAndWritesTheRenderedShape() throws {
    let decoded = try JSONDecoder().decode(
      LaunchReport.self, from: Data(Self.report.json().utf8))
    #expect(decoded == Self.report)
    let encoded = try JSONEncoder().encode(Self.report)
    #expect(try LaunchReport(json: String(decoding: encoded, as: UTF8.self)) == Self.report)
  }

  /// A document written before `idleDelayNs` existed still reads: the delay from the text.
  @Test func jsonWithoutIdleDelayTakesItFromThePriority() throws {
    let json = Self.report.json()
    let older = json.replacing("\"idleDelayNs\":10000000000,", with: "")
    #expect(older.count < json.count)
    #expect(try LaunchReport(json: older) == Self.report)
  }

  /// Typed values survive the round trip exactly, even where their text rounds them.
  @Test func jsonKeepsExactIdleDelaysAndEveryTrigger() throws {
    let builds = BuildTrigger.allCases.enumerated().map { index, trigger in
      BuildRecord(
        service: "S\(index)", priority: .idle(after: .milliseconds(100 + index)),
        trigger: trigger, thread: "main", isMainThread: true, qos: .background,
        start: .nanoseconds(index), duration: .nanoseconds(7), selfDuration: .nanoseconds(3),
        outcome: .cancelled, attempt: 0)
    }
    let report = LaunchReport(
      processStart: .clock, processStartPrecision: .zero,
      milestones: [Milestone(.processStart, at: .zero)], builds: builds)
    #expect(try LaunchReport(json: report.json()) == report)
    #expect(
      try JSONDecoder().decode(LaunchReport.self, from: Data(report.json().utf8)) == report)
    #expect(report.builds.map(\.stage) == [.idle, .idle, .idle])
  }

  @Test func chromeTrace() throws {
    let trace = Self.report.chromeTrace()
    try Self.golden("trace.json", trace)
    let parsed = try JSONSerialization.jsonObject(with: Data(trace.utf8)) as? [String: Any]
    let events = try #require(parsed?["traceEvents"] as? [[String: Any]])
    let spans = events.filter { $0["ph"] as? String == "X" }
    #expect(spans.count == Self.report.builds.count + 1)  // the builds and the main-thread wait
    let names = events.filter { $0["name"] as? String == "thread_name" }.compactMap {
      ($0["args"] as? [String: Any])?["name"] as? String
    }
    #expect(names == ["main", "worker (101)", "worker (102)"])
    #expect(events.filter { $0["ph"] as? String == "i" }.count == Self.report.milestones.count)
  }

  @Test func svgTimeline() throws {
    let svg = Self.report.svg()
    try Self.golden("timeline.svg", svg)
    let parser = XMLParser(data: Data(svg.utf8))
    let counter = ElementCounter()
    parser.delegate = counter
    #expect(parser.parse(), "the SVG is well-formed XML")
    #expect(counter.counts["svg"] == 1)
    #expect(counter.counts["g"] == Self.report.builds.count + 1)  // and the main thread's wait
    #expect(svg.contains("Units &quot;SI&quot;"))
  }

  /// A build that waited for another gets an arrow, from its bar to the end of the other's;
  /// the main thread's wait gets one from its wait.
  @Test func svgDrawsAnArrowFromEachWaiter() throws {
    let svg = Self.report.svg()
    // Span 200 ms over 1000 px from x = 170: Network ends at 108 ms, x = 710, the arrow 2 px
    // before. Rows: main at 74 (one lane), worker (101) at 104, worker (102) at 134 (two
    // lanes: Units is nested in Conversions).
    #expect(svg.contains("<line x1=\"708\" y1=\"82\" x2=\"708\" y2=\"103\""))
    #expect(svg.contains("<line x1=\"708\" y1=\"142\" x2=\"708\" y2=\"121\""))
    #expect(svg.contains("<title>Conversions waited for Network</title>"))
    #expect(svg.components(separatedBy: "marker-end=\"url(#waited)\"").count == 3)
  }

  /// Milestones close together get label rows of their own, and the plot moves down for a
  /// third.
  @Test func closeMilestoneLabelsDoNotOverlap() throws {
    func labels(_ milestones: [Milestone]) -> [(x: Double, y: Double, width: Double)] {
      let svg = LaunchReport(
        processStart: .clock, processStartPrecision: .zero,
        milestones: [Milestone(.processStart, at: .zero)] + milestones,
        builds: [
          BuildRecord(
            service: "A", priority: .critical, trigger: .launch, thread: "main",
            isMainThread: true, start: .zero, duration: .milliseconds(20),
            selfDuration: .milliseconds(20), outcome: .built, attempt: 1)
        ]
      ).svg()
      let lines = svg.split(separator: "\n").filter {
        $0.hasPrefix("<text") && $0.contains("fill=\"#222\"")
      }
      return lines.map { line in
        func number(_ name: String) -> Double {
          let rest = line.split(separator: "\(name)=\"", maxSplits: 1)[1]
          return Double(rest.prefix { $0 != "\"" })!
        }
        let text = line.split(separator: ">")[1].split(separator: "<")[0]
        return (number("x"), number("y"), Double(text.count) * 6.2)
      }
    }
    let two = labels([
      Milestone(.firstFrame, at: .milliseconds(10)),
      Milestone(.fullyReady, at: .nanoseconds(10_050_000)),
    ])
    #expect(two.map(\.y) == [50, 62])
    let three = labels([
      Milestone(.criticalReady, at: .milliseconds(10)),
      Milestone(.firstFrame, at: .nanoseconds(10_020_000)),
      Milestone(.fullyReady, at: .nanoseconds(10_050_000)),
    ])
    #expect(three.map(\.y) == [50, 62, 74])
    // Labels on one row never overlap.
    for (index, label) in three.enumerated() {
      for other in three[(index + 1)...] where other.y == label.y {
        #expect(other.x >= label.x + label.width)
      }
    }
    // Far apart, they share the first row.
    let apart = labels([
      Milestone(.firstFrame, at: .milliseconds(2)), Milestone(.fullyReady, at: .milliseconds(18)),
    ])
    #expect(apart.map(\.y) == [50, 50])
  }

  /// The trace links each waiter to the build it waited for with a flow: a start and an end of
  /// one id, the end bound to its enclosing slice.
  @Test func traceFlowsPairUp() throws {
    let trace = Self.report.chromeTrace()
    let parsed = try JSONSerialization.jsonObject(with: Data(trace.utf8)) as? [String: Any]
    let events = try #require(parsed?["traceEvents"] as? [[String: Any]])
    let starts = events.filter { $0["ph"] as? String == "s" }
    let ends = events.filter { $0["ph"] as? String == "f" }
    #expect(starts.count == 2 && ends.count == 2)
    let startIDs = starts.compactMap { $0["id"] as? Int }
    #expect(Set(startIDs) == Set(ends.compactMap { $0["id"] as? Int }))
    #expect(Set(startIDs).count == 2)
    #expect(ends.allSatisfy { $0["bp"] as? String == "e" && $0["tid"] as? Int == 2 })
    // From the main thread's wait (tid 1) and from Conversions (worker (102), tid 3).
    #expect(Set(starts.compactMap { $0["tid"] as? Int }) == [1, 3])
    for end in ends {
      let at = try #require(end["ts"] as? Double)
      #expect(at > 68_000 && at < 108_000)  // inside Network's span
    }
    for start in starts {
      let at = try #require(start["ts"] as? Double)
      #expect(at > 70_000 && at < 108_000)  // inside the wait, and Conversions
    }
  }

  @Test func svgStaysWellFormedWithManyServices() throws {
    var builds: [BuildRecord] = []
    for index in 0..<200 {
      builds.append(
        BuildRecord(
          service: "Service\(index)",
          priority: index < 20 ? .critical : .afterFirstFrame(.utility),
          trigger: index < 20 ? .launch : .scheduled,
          thread: index < 20 ? "main" : "w\(index % 4)",
          isMainThread: index < 20, start: Self.ms * index / 2,
          duration: .milliseconds(index % 7 + 1), selfDuration: Self.ms, outcome: .built,
          attempt: 1))
    }
    let report = LaunchReport(
      processStart: .operatingSystem, processStartPrecision: .milliseconds(10),
      milestones: [
        Milestone(.processStart, at: .zero), Milestone(.firstFrame, at: .milliseconds(10)),
      ],
      builds: builds)
    let parser = XMLParser(data: Data(report.svg().utf8))
    let counter = ElementCounter()
    parser.delegate = counter
    #expect(parser.parse())
    #expect(counter.counts["g"] == 200)
  }

  @Test func dotGraphHighlightsTheCriticalPath() throws {
    let dot = Self.report.dot()
    try Self.golden("graph.dot", dot)
    // Conversions (100 ms self) → Units (20 ms) is the costliest chain.
    #expect(dot.contains("\"Conversions\" -> \"Units \\\"SI\\\"\" [color=red, penwidth=2];"))
    #expect(!dot.contains("\"Theme\" -> \"Fonts\" [color=red"))
  }

  /// A launch whose only service failed, with no dependency edges, still draws that service.
  @Test func dotGraphShowsAFailedServiceWithoutEdges() throws {
    let container = Container(scheduler: ManualScheduler())
    try container.register(Storage.self, priority: .critical) { () throws -> Storage in
      throw Failure(message: "disk full")
    }
    #expect(throws: DeferredError.self) { try container.launch() }
    let dot = container.launchReport().dot()
    #expect(dot.contains("  \"Storage\" [label=\"Storage\\ncritical\\nfailed\""))
    // Nothing was built: there is no critical path to draw.
    #expect(!dot.contains("color=red"))
  }
}

final class ElementCounter: NSObject, XMLParserDelegate {
  var counts: [String: Int] = [:]

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    counts[elementName, default: 0] += 1
  }
}
