import DeferredReports
import Foundation
import Testing

@testable import Deferred

/// Every rendering is total over every report its initialisers and `LaunchReport(json:)`
/// accept, however far its figures: none traps, whatever the durations.
@Suite struct FarDurationTests {
  /// Durations at and beyond what a report's JSON holds, either sign.
  static let far: [Duration] = [
    .seconds(Int64.max), .nanoseconds(Int64.max), .seconds(Int64.min), .nanoseconds(Int64.min),
    .seconds(Int64.max) + .seconds(Int64.max),
  ]

  /// Every rendering of `report`, each at least once, with a budget it breaks in every rule.
  static func renderAll(_ report: LaunchReport) throws {
    _ = report.text()
    _ = report.json()
    _ = report.json(pretty: true)
    _ = report.svg()
    _ = report.svg(width: 0)
    _ = report.dot()
    _ = report.chromeTrace()
    let advice = report.advise()
    _ = Advice.worthShowing(advice)
    _ = report.predictDeferred()
    _ = report.predictDeferred(applying: advice, workers: 1)
    _ = report.idealBackgroundBound(cores: 1)?.ratio
    let budget = LaunchBudget(
      firstFrame: .zero, criticalPhase: .zero, criticalInitializer: .zero,
      mainThreadWaits: false, regressions: false)
    for violation in report.check(budget) { _ = violation.description }
    // What the JSON keeps reads back, and renders too.
    let read = try LaunchReport(json: report.json())
    _ = read.text()
    _ = read.svg()
  }

  /// The rendering tests' launch with every duration (and the process start's precision, the
  /// idle delays, the transients and hazards) set to `far`, and many of each, so that sums
  /// would overflow.
  static func report(every far: Duration) -> LaunchReport {
    var report = RenderingTests.report
    report.processStartPrecision = far
    report.milestones = report.milestones.map { Milestone($0.kind, at: far) }
    var builds: [BuildRecord] = []
    for copy in 0..<40 {
      for var build in report.builds {
        build.service += copy == 0 ? "" : " \(copy)"
        build.queued = far
        build.start = far
        build.duration = far
        build.selfDuration = far
        build.cpu = far
        build.waited = far
        if build.priority.idleDelay != nil { build.priority = .idle(after: far) }
        builds.append(build)
      }
    }
    report.builds = builds
    report.transients = report.transients.map {
      TransientRecord(service: $0.service, count: .max, total: far, median: far, max: far)
    }
    let hazards = report.hazards.map {
      Hazard(
        kind: $0.kind, service: $0.service, detail: $0.detail, duration: far, baseline: far)
    }
    report.hazards =
      Array(repeating: hazards, count: 40).flatMap { $0 }
      + [
        Hazard(
          kind: .regression, service: "Storage", detail: "", duration: far, baseline: .zero),
        Hazard(
          kind: .milestoneRegression, service: "firstFrame", detail: "", duration: far,
          baseline: .zero - far),
      ]
    report.advice = report.advice.map {
      Advice(
        kind: $0.kind, service: $0.service, priority: $0.priority, suggestion: $0.suggestion,
        saving: far, effect: $0.effect, cost: far, chain: $0.chain, detail: $0.detail)
    }
    report.advice += Array(repeating: report.advice, count: 40).flatMap { $0 }
    return report
  }

  @Test(arguments: 0..<far.count)
  func everyRenderingIsTotalOverFarFiguresFromTheInitialisers(_ index: Int) throws {
    try Self.renderAll(Self.report(every: Self.far[index]))
  }

  @Test(arguments: 0..<far.count)
  func aBudgetViolationDescribesFarFigures(_ index: Int) {
    let far = Self.far[index]
    for rule in BudgetViolation.Rule.allCases {
      let violation = BudgetViolation(rule: rule, limit: far, actual: far, services: ["A"])
      #expect(!violation.description.isEmpty)
    }
    let description = BudgetViolation(
      rule: .firstFrame, limit: .seconds(1), actual: .seconds(Int64.max)
    ).description
    #expect(description.hasPrefix("firstFrame: 184467440737"))
  }

  /// Each `…Ns` figure of a report's JSON set to the largest figures JSON integers reach:
  /// the decoder takes it (a figure beyond a duration's nanoseconds is read as the largest)
  /// or refuses it with a `JSONError`, and whatever it takes renders.
  @Test(arguments: ["9223372036854775807", "18446744073709551615"])
  func farFiguresInJSONAreReadAndRendered(_ figure: String) throws {
    let json = RenderingTests.report.json()
    let pattern = try Regex(#"("[A-Za-z]*Ns"):[0-9]+"#)
    let far = json.replacing(pattern) { match in "\(match.output[1].substring ?? ""):\(figure)" }
    #expect(far != json)
    let report = try LaunchReport(json: far)
    #expect(report.builds.allSatisfy { $0.duration == .nanoseconds(Int64.max) })
    try Self.renderAll(report)
  }

  /// A figure beyond what a JSON integer of the schema holds is refused, with a `JSONError`.
  @Test func aFigureBeyondTheSchemaIsAJSONError() {
    let json = RenderingTests.report.json()
    let beyond = json.replacing("\"durationNs\":6000000", with: "\"durationNs\":1e30")
    #expect(beyond != json)
    #expect(throws: JSONError.self) { try LaunchReport(json: beyond) }
  }

  /// `milliseconds(_:)` prints the largest figure it is given, rounding never past it.
  @Test func millisecondsPrintsTheLargestFigure() {
    #expect(milliseconds(UInt64.max) == "18446744073709.55 ms")
    #expect(milliseconds(UInt64(4_999)) == "0.00 ms")
    #expect(milliseconds(UInt64(5_000)) == "0.01 ms")
  }
}
