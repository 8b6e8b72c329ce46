import Testing

@testable import Deferred
@testable import DeferredReports

/// The timeline's broken axis, for launches whose first frame comes early, and its lane names.
@Suite struct TimelineAxisTests {
  /// A launch with a critical build of `critical` and a first frame at `firstFrame`, then a
  /// background build that ends at 500 ms.
  static func report(critical: Duration, firstFrame: Duration) -> LaunchReport {
    LaunchReport(
      processStart: .clock, processStartPrecision: .zero,
      milestones: [
        Milestone(.processStart, at: .zero), Milestone(.launchBegan, at: .milliseconds(2)),
        Milestone(.firstFrame, at: firstFrame), Milestone(.fullyReady, at: .milliseconds(500)),
      ],
      builds: [
        BuildRecord(
          service: "ThemeEngine", priority: .critical, trigger: .launch, thread: "main",
          isMainThread: true, start: .milliseconds(2), duration: critical,
          selfDuration: critical, outcome: .built, attempt: 1),
        BuildRecord(
          service: "Conversions", priority: .afterFirstFrame(.utility), trigger: .scheduled,
          thread: "oot.utility-qos (27829)", isMainThread: false, qos: .utility,
          start: firstFrame, duration: .milliseconds(500) - firstFrame,
          selfDuration: .milliseconds(500) - firstFrame, outcome: .built, attempt: 1),
      ])
  }

  /// The width of the bar of `service` in `svg`.
  static func barWidth(of service: String, in svg: String) throws -> Double {
    let line = try #require(
      svg.split(separator: "\n").first { $0.contains("<title>\(service):") })
    let width = try #require(line.split(separator: "width=\"").dropFirst().first)
    return try #require(Double(width.prefix { $0 != "\"" }))
  }

  @Test func anEarlyFirstFrameGetsAQuarterOfTheWidth() throws {
    let svg = Self.report(critical: .milliseconds(11), firstFrame: .milliseconds(14)).svg()
    // 1,000 px of plot: the 14 ms before the first frame get 250 px, the critical build 11/14
    // of them; on one scale of 500 ms it would get 22 px, too narrow for its name.
    #expect(try Self.barWidth(of: "ThemeEngine", in: svg) > 180)
    #expect(svg.contains(">ThemeEngine</text>"))
    #expect(svg.contains("scale changes at the first frame"))
  }

  @Test func aLateFirstFrameKeepsOneScale() throws {
    let svg = Self.report(critical: .milliseconds(150), firstFrame: .milliseconds(200)).svg()
    #expect(try Self.barWidth(of: "ThemeEngine", in: svg) == 300)
    #expect(!svg.contains("scale changes"))
  }

  @Test func ticksAfterTheBreakReadTheirOwnTime() throws {
    let svg = Self.report(critical: .milliseconds(11), firstFrame: .milliseconds(14)).svg()
    let labels = svg.split(separator: "\n").filter { $0.contains("fill=\"#555\">") }.map {
      $0.split(separator: ">")[1].split(separator: "<")[0]
    }
    #expect(labels.contains("0 ms") && labels.contains("10 ms"))
    #expect(labels.contains("100 ms") && labels.contains("500 ms"))
  }

  @Test func laneNamesAreReadableAndNeverCutWithinAWord() {
    #expect(LaunchReport.laneName("oot.utility-qos (27829)") == "utility queue (27829)")
    #expect(LaunchReport.laneName("r-initiated-qos (27828)") == "user-initiated queue (27828)")
    #expect(LaunchReport.laneName("main") == "main")
    #expect(LaunchReport.laneName("worker (101)") == "worker (101)")
    let long = LaunchReport.laneName("image decoding worker number (4512)")
    #expect(long == "image decoding worker…")
    #expect(long.count <= 24)
  }
}
