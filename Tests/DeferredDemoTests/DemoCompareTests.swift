import Deferred
import DeferredDemoKit
import Foundation
import Synchronization
import Testing

/// `compare`'s JSON contract, against a stub child that reports fixed times, and the
/// statistics and process spawning behind it.
@Suite struct DemoCompareTests {
  /// A child's report: the first frame and full readiness at these milliseconds; a launch of
  /// 1 ms that built two services whose factories took `factories` nanoseconds of it, and one
  /// service built after it (which does not count against the launch).
  static func report(
    firstFrame: UInt64, fullyReady: UInt64, factories: UInt64 = 400_000,
    syncStart: UInt64 = 3_000_000
  ) -> String {
    func build(_ service: String, _ trigger: BuildTrigger, start: UInt64, own: UInt64)
      -> BuildRecord
    {
      BuildRecord(
        service: service, priority: .critical, trigger: trigger, thread: "main",
        isMainThread: true, start: .nanoseconds(start), duration: .nanoseconds(own),
        selfDuration: .nanoseconds(own), outcome: .built, attempt: 1)
    }
    return LaunchReport(
      processStart: .handover, processStartPrecision: .microseconds(1),
      milestones: [
        Milestone(.processStart, at: .zero), Milestone(.launchBegan, at: .milliseconds(1)),
        Milestone(.criticalReady, at: .milliseconds(2)),
        Milestone(.firstFrame, at: .milliseconds(firstFrame)),
        Milestone(.fullyReady, at: .milliseconds(fullyReady)),
      ],
      builds: [
        build("Storage", .launch, start: 1_000_000, own: factories / 4),
        build("Theme", .launch, start: 1_200_000, own: factories - factories / 4),
        build("Sync", .scheduled, start: syncStart, own: 5_000_000),
      ]
    ).json()
  }

  @Test func jsonHasTheContractedShape() throws {
    let calls = Mutex<[String]>([])
    let comparison = try Comparison.measure(runs: 4) { mode, index throws(DemoError) in
      calls.withLock { $0.append("\(mode)\(index)") }
      let run = UInt64(index + 1)
      return mode == .eager
        ? Self.report(firstFrame: 100 * run, fullyReady: 100 * run + 1)
        : Self.report(
          firstFrame: 10 * run, fullyReady: 50 * run, factories: 1_000_000 - run * 2_000)
    }
    // Interleaved: eager, deferred, eager, ...
    #expect(
      calls.withLock { $0 } == [
        "eager0", "deferred0", "eager1", "deferred1", "eager2", "deferred2", "eager3",
        "deferred3",
      ])
    let root = try Self.object(comparison.json())
    #expect(root["runs"] as? Int == 4)
    let modes = try #require(root["modes"] as? [String: Any])
    let expected: [String: [String: (median: Double, p95: Double)]] = [
      // Launch overhead: (1 ms − the factories' own time) ÷ 2 services, in µs.
      "eager": [
        "firstFrameMs": (250, 400), "fullyReadyMs": (251, 401), "launchOverheadUs": (300, 300),
      ],
      "deferred": [
        "firstFrameMs": (25, 40), "fullyReadyMs": (125, 200), "launchOverheadUs": (2.5, 4),
      ],
    ]
    for (mode, metrics) in expected {
      for (metric, values) in metrics {
        let statistics = (modes[mode] as? [String: Any])?[metric] as? [String: Any]
        #expect(statistics?["median"] as? Double == values.median, "\(mode).\(metric)")
        #expect(statistics?["p95"] as? Double == values.p95, "\(mode).\(metric)")
      }
    }
    // No build after either mode's first frame: nothing to bound.
    #expect((modes["eager"] as? [String: Any])?["boundRatio"] is NSNull)
    #expect((modes["deferred"] as? [String: Any])?["boundRatio"] is NSNull)
    #expect(!comparison.table().contains("ideal bound"))
    #expect(comparison.table().contains("deferred, medians"))
    #expect(comparison.table().contains("deferred launch(): median 2.50 µs, p95 4.00 µs"))
  }

  @Test func theWorkAfterTheFirstFrameIsSetBesideItsIdealBound() throws {
    // Sync, 5 ms of its own from 20 ms; the first frame at 10 ms, fully ready at 50: 40 ms
    // for a bound of max(5, 5 / 2) = 5 ms.
    let json = Self.report(firstFrame: 10, fullyReady: 50, syncStart: 20_000_000)
    #expect(try Comparison.Sample(report: json, workers: 2).boundRatio == 8)
    let comparison = try Comparison.measure(runs: 1, workers: 2) { mode, _ throws(DemoError) in
      mode == .eager ? Self.report(firstFrame: 100, fullyReady: 100) : json
    }
    let modes = try Self.object(comparison.json())["modes"] as? [String: Any]
    let deferred = modes?["deferred"] as? [String: Any]
    #expect((deferred?["boundRatio"] as? [String: Any])?["median"] as? Double == 8)
    #expect((modes?["eager"] as? [String: Any])?["boundRatio"] is NSNull)
    #expect(
      comparison.table().contains(
        "work after its first frame took 8.00× its ideal bound, max(critical path, work / 2)"))
  }

  @Test func unreadableChildReportIsAnError() {
    let error = #expect(throws: DemoError.self) {
      try Comparison.measure(runs: 1) { _, _ throws(DemoError) in "not json" }
    }
    #expect(error?.message.contains("not readable") == true)
  }

  @Test func medianAndNearestRankPercentile() {
    let odd = Statistics([5, 1, 3])
    #expect((odd.median, odd.p95) == (3, 5))
    let even = Statistics([4, 1, 3, 2])
    #expect((even.median, even.p95) == (2.5, 4))
    let twenty = Statistics((1...20).map(Double.init))
    #expect(twenty.p95 == 19)
  }

  @Test func childGetsTheSpawnTimeAndItsOutputIsCollected() throws {
    let before = MonotonicClock().now()
    let result = try ChildProcess.run(
      ["/bin/sh", "-c", "printf %s \"$DEFERRED_SPAWN_NS\"; printf oops >&2; exit 3"],
      collectErrors: true)
    #expect(result.status == 3)
    #expect(result.errors == "oops")
    let spawned = try #require(UInt64(result.output))
    #expect(spawned >= before && spawned <= MonotonicClock().now())
  }

  @Test func missingProgramIsAnError() {
    #expect(throws: DemoError.self) {
      try ChildProcess.run(["/nonexistent/program"])
    }
  }

  /// `json`, a JSON object, read with `JSONSerialization`.
  private static func object(_ json: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
  }
}

@Suite struct SoonerTests {
  @Test func ratiosReadAsHowManyTimesSooner() {
    #expect(Comparison.sooner(15.9, than: 582.5) == "37× sooner")
    #expect(Comparison.sooner(224.4, than: 357.1) == "1.59× sooner")
    #expect(Comparison.sooner(458.0, than: 357.1) == "1.28× later")
    #expect(Comparison.sooner(100, than: 250) == "2.5× sooner")
    #expect(Comparison.sooner(0, than: 1) == "-")
  }
}
