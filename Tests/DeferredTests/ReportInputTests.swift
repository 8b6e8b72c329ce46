import DeferredReports
import Foundation
import Testing

@testable import Deferred

/// `LaunchReport(json:)` on input a new user might give it, and renderings of extreme reports.
@Suite struct ReportInputTests {
  static let header =
    "{\"schema\":\"deferred.launch-report/1\",\"processStart\":{\"source\":\"clock\",\"precisionNs\":0}"

  /// A report of one build of `service`.
  static func report(service: String) -> LaunchReport {
    LaunchReport(
      processStart: .clock, processStartPrecision: .zero,
      milestones: [Milestone(.processStart, at: .zero)],
      builds: [
        BuildRecord(
          service: service, priority: .critical, trigger: .launch, thread: "main",
          isMainThread: true, start: .milliseconds(1), duration: .milliseconds(2),
          selfDuration: .milliseconds(2), outcome: .built, attempt: 1)
      ])
  }

  /// Ten thousand nested brackets throw a typed error, at the first bracket past the limit,
  /// instead of overflowing the stack.
  @Test func deepNestingThrowsInsteadOfOverflowingTheStack() throws {
    let brackets = String(repeating: "[", count: 10_000)
    let error = #expect(throws: JSONError.self) { try LaunchReport(json: brackets) }
    #expect(error?.offset == JSONCoding.depthLimit)
    #expect(error?.message.contains("nested deeper than 64 levels") == true)
    // Inside a report, and closed: the same.
    let inside =
      Self.header + ",\"builds\":" + brackets + String(repeating: "]", count: 10_000) + "}"
    #expect(throws: JSONError.self) { try LaunchReport(json: inside) }
    // Brackets inside a string are text, not nesting.
    let name = String(repeating: "[{", count: 10_000) + "\\\"]"
    let report = Self.report(service: String(repeating: "[{", count: 10_000) + "\"]")
    #expect(try LaunchReport(json: report.json()) == report)
    #expect(report.json().contains(name))
  }

  /// A surrogate pair escape is one scalar; a string's text round-trips, control characters
  /// and all.
  @Test func escapesDecodeToTheirScalars() throws {
    let json =
      Self.header
      + ",\"builds\":[{\"service\":\"\\ud83d\\ude00 \\u00e9\\t\",\"priority\":\"critical\","
      + "\"trigger\":\"launch\",\"thread\":\"main\",\"startNs\":0,\"durationNs\":1,\"selfNs\":1,"
      + "\"outcome\":\"built\"}]}"
    let report = try LaunchReport(json: json)
    #expect(report.builds.map(\.service) == ["😀 é\t"])
    let odd = Self.report(service: "a\"b\\c\u{0}\u{1F}\n/😀")
    #expect(try LaunchReport(json: odd.json()) == odd)
    #expect(try LaunchReport(json: odd.json(pretty: true)) == odd)
  }

  static let malformed: [(json: String, place: String)] = [
    ("", ""), ("{", ""), ("[]", ""), ("null", ""), ("{\"schema\": \"other\"}", "schema"),
    (header, ""), (header + "}}", ""), (header + ",\"builds\":{}}", "builds"),
    (header + ",\"builds\":[{}]}", "builds[0]"),
    (header + ",\"milestones\":[{\"name\":\"launchBegan\",\"offsetNs\":-1}]}", ""),
    (header + ",\"milestones\":[{\"name\":\"launchBegan\",\"offsetNs\":1e400}]}", ""),
    (header + ",\"hazards\":[{\"kind\":\"nope\",\"service\":\"s\",\"detail\":\"d\"}]}", "kind"),
    (header + ",\"firstFrameUses\":[\"\\ud83d\"]}", ""),
    (header + ",\"firstFrameUses\":[\"\\x\"]}", ""),
  ]

  /// Malformed documents each throw a typed error (naming the field, where one is at fault);
  /// none traps.
  @Test(arguments: malformed)
  func malformedDocumentsThrow(_ input: (json: String, place: String)) {
    let error = #expect(throws: JSONError.self) { try LaunchReport(json: input.json) }
    #expect(error?.message.isEmpty == false)
    if !input.place.isEmpty {
      #expect(error?.message.contains(input.place) == true, "\(error?.message ?? "")")
    }
  }

  /// A report with a service name of a million characters renders in time linear in its size:
  /// the table's widths and padding count each cell once.
  @Test func textOfAMillionCharacterNameKeepsItsShape() throws {
    let name = String(repeating: "ab", count: 500_000)
    var report = Self.report(service: name)
    report.transients = [
      TransientRecord(
        service: name + "é", count: 2, total: .milliseconds(2), median: .milliseconds(1),
        max: .milliseconds(1))
    ]
    let lines = report.text().split(separator: "\n", omittingEmptySubsequences: false)
    let header = try #require(lines.firstIndex { $0.hasPrefix("  service") })
    // The header's `service` column is as wide as the name; the row holds the name whole.
    #expect(lines[header].hasPrefix("  service" + String(repeating: " ", count: 999_993 + 2)))
    #expect(lines[header + 1].hasPrefix("  " + name + "  2.00 ms"))
    #expect(lines[header + 1].hasSuffix("main    launch   1.00 ms"))
    let transient = try #require(lines.firstIndex { $0 == "transient:" })
    #expect(lines[transient + 2].hasPrefix("  " + name + "é      2  2.00 ms"))
    #expect(lines[transient + 1].count == lines[transient + 2].count)
  }
}
