import Foundation
import Testing

@testable import Deferred

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Golden files for each rendering of one fixed launch. Run with `DEFERRED_UPDATE_GOLDEN=1` to
/// write them anew, then read the diff.
@Suite struct RenderingTests {
  static let ms: UInt64 = 1_000_000

  static let report = LaunchReport(
    processStart: .handover, processStartPrecision: 1_000,
    milestones: [
      Milestone(.processStart, at: 0), Milestone(.launchBegan, at: 18 * ms),
      Milestone(.criticalReady, at: 61 * ms), Milestone(.firstFrame, at: 67 * ms),
      Milestone(.fullyReady, at: 190 * ms),
    ],
    builds: [
      BuildRecord(
        service: "Fonts", priority: "afterFirstFrame(utility)", trigger: "launch",
        requestedBy: "Theme", thread: "main", isMainThread: true, start: 18 * ms,
        duration: 6 * ms, selfDuration: 6 * ms, cpu: 5 * ms, outcome: .built, attempt: 1),
      BuildRecord(
        service: "Theme", priority: "critical", trigger: "launch", thread: "main",
        isMainThread: true, start: 24 * ms, duration: 30 * ms, selfDuration: 30 * ms,
        cpu: 29 * ms, outcome: .built, attempt: 1),
      BuildRecord(
        service: "Storage", priority: "critical", trigger: "launch", thread: "main",
        isMainThread: true, start: 54 * ms, duration: 7 * ms, selfDuration: 7 * ms, cpu: 2 * ms,
        outcome: .built, attempt: 1),
      BuildRecord(
        service: "Network", priority: "afterFirstFrame(userInitiated)", trigger: "scheduled",
        thread: "worker (101)", isMainThread: false, qos: "userInitiated", queued: ms / 2,
        start: 68 * ms, duration: 40 * ms, selfDuration: 40 * ms, cpu: 3 * ms,
        waited: 12 * ms, waiters: ["main"], outcome: .failed,
        error: "The factory of Network threw offline.", attempt: 1),
      BuildRecord(
        service: "Conversions", priority: "idle(10.0 seconds)", trigger: "scheduled",
        thread: "worker (102)", isMainThread: false, qos: "utility", queued: 2 * ms,
        start: 70 * ms, duration: 120 * ms, selfDuration: 100 * ms, cpu: 118 * ms,
        outcome: .built, attempt: 1),
      BuildRecord(
        service: "Units \"SI\"", priority: "onDemand", trigger: "scheduled",
        requestedBy: "Conversions", thread: "worker (102)", isMainThread: false,
        start: 150 * ms, duration: 20 * ms, selfDuration: 20 * ms, cpu: 20 * ms,
        outcome: .built, attempt: 1),
    ],
    transients: [
      TransientRecord(service: "Formatter", count: 12, total: 3 * ms, median: ms / 5, max: ms)
    ],
    hazards: [
      Hazard(
        kind: .promoted, service: "Fonts",
        detail: "Fonts (afterFirstFrame(utility)) was built before the first frame because Theme"
          + " needs it.", duration: 6 * ms),
      Hazard(
        kind: .mainThreadWait, service: "Network",
        detail: "The main thread waited 12.00 ms for Network, which another thread was building.",
        duration: 12 * ms),
    ],
    dependencies: [
      "Theme": ["Fonts"], "Conversions": ["Units \"SI\"", "Storage"], "Network": ["Storage"],
    ])

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

  @Test func svgStaysWellFormedWithManyServices() throws {
    var builds: [BuildRecord] = []
    for index in 0..<200 {
      builds.append(
        BuildRecord(
          service: "Service\(index)",
          priority: index < 20 ? "critical" : "afterFirstFrame(utility)",
          trigger: index < 20 ? "launch" : "scheduled",
          thread: index < 20 ? "main" : "w\(index % 4)",
          isMainThread: index < 20, start: UInt64(index) * Self.ms / 2,
          duration: UInt64(index % 7 + 1) * Self.ms, selfDuration: Self.ms, outcome: .built,
          attempt: 1))
    }
    let report = LaunchReport(
      processStart: .operatingSystem, processStartPrecision: 10 * Self.ms,
      milestones: [Milestone(.processStart, at: 0), Milestone(.firstFrame, at: 10 * Self.ms)],
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
