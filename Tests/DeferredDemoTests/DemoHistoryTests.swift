import Deferred
import DeferredDemoKit
import DeferredHistory
import DeferredReports
import Testing

/// `history`: the deferred app launched with a launch history, stepped through with the
/// manual scheduler and clock, and what the command prints about it.
@Suite struct DemoHistoryTests {
  /// A history of one launch in which each service's build took its cost, in milliseconds,
  /// of its own time: the tape's index and suggestions are the longest path.
  static func history(_ costs: [String: Int]) -> LaunchHistory {
    let history = LaunchHistory()
    history.record(
      LaunchReport(
        processStart: .clock, processStartPrecision: .zero,
        milestones: [Milestone(.processStart, at: .zero)],
        builds: costs.sorted { $0.key < $1.key }.map { service, milliseconds in
          BuildRecord(
            service: service, priority: .afterFirstFrame(), trigger: .scheduled,
            thread: "worker", isMainThread: false, start: .zero,
            duration: .milliseconds(milliseconds), selfDuration: .milliseconds(milliseconds),
            outcome: .built, attempt: 1)
        }))
    return history
  }

  /// Launches the deferred app two builds at a time, one job at a time with a millisecond
  /// between jobs, until it is fully ready and its history job has run: its report, and the
  /// jobs the first frame handed over.
  @MainActor
  static func launch(history: LaunchHistory?, fixture: DemoFixture) async throws -> (
    report: LaunchReport, firstJobs: [String]
  ) {
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let container = try AppServices.makeContainer(
      mode: .deferred, files: fixture.files, workload: .tiny, scheduler: scheduler,
      clock: clock, maxConcurrentBuilds: 2, history: history)
    clock.advance(by: .milliseconds(1))
    try container.launch()
    clock.advance(by: .milliseconds(1))
    _ = try { () throws -> KeypadFrame in try container.resolve() }()
    try container.firstFrameDrawn()
    let firstJobs = scheduler.queued
    // Background jobs run off the main actor, as a Dispatch worker runs them: code on the
    // main queue builds as the main thread.
    func runJobs() async {
      await Task.detached {
        repeat { clock.advance(by: .milliseconds(1)) } while scheduler.runNext()
      }.value
    }
    await runJobs()
    _ = try await whenBuilt(DeferredDemoKit.SyncService.self, in: container)
    #expect(scheduler.runMainNext())
    await runJobs()
    container.appIsIdle()
    await runJobs()
    _ = try await whenBuilt(ConfigRefresh.self, in: container)
    try await container.fullyReady()
    // The history's job: it records the launch.
    await runJobs()
    return (container.launchReport(), firstJobs)
  }

  @MainActor @Test func theHistoryPutsTheTapesChainBeforeTheShortBuilds() async throws {
    let fixture = try DemoFixture()
    // No history: registration order. Location was registered before the tape's features.
    let first = try await Self.launch(history: nil, fixture: fixture)
    #expect(
      first.firstJobs == ["build SyncService", "build Calculator", "build LocationProvider"])
    // A history in which the index and the suggestions made from it (50 ms) outweigh location
    // (40 ms) and the two short builds: the index goes first, the short builds last.
    let history = Self.history([
      "Calculator": 10, "LocationProvider": 40, "TipsCatalog": 3, "Achievements": 2,
      "TapeIndex": 30, "Suggestions": 20, "Conversions": 25,
    ])
    let second = try await Self.launch(history: history, fixture: fixture)
    #expect(second.firstJobs == ["build SyncService", "build Calculator", "build TapeIndex"])
    // The launch recorded itself: the history now remembers two.
    #expect(history.launchCount == 2)

    let run = HistoryRun(
      launches: [
        HistoryRun.Launch(report: first.report, remembered: 0, workers: 2),
        HistoryRun.Launch(report: second.report, remembered: 1, workers: 2),
      ], workers: 2)
    let orders = run.launches.map(\.backgroundOrder)
    // Every synchronous background build, once, in both; in another order.
    let expected: Set = [
      "Calculator", "LocationProvider", "TipsCatalog", "Achievements", "TapeIndex", "Suggestions",
      "Conversions",
    ]
    for order in orders {
      #expect(Set(order) == expected && order.count == expected.count)
    }
    #expect(orders[0] != orders[1])
    // After the calculator (user-initiated, first in both): location, or the index and, in
    // the same job (a job carries on with the best ready build of its quality of service),
    // the suggestions it made ready.
    #expect(orders[0].prefix(2) == ["Calculator", "LocationProvider"])
    #expect(orders[1].prefix(3) == ["Calculator", "TapeIndex", "Suggestions"])
    // Each launch has a bound, with the tape's chain among the builds after the first frame.
    for launch in run.launches {
      let bound = try #require(launch.bound)
      #expect(bound.cores == 2)
      #expect(bound.order.contains("Suggestions"))
    }

    let lines = run.text().split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    #expect(lines.contains("launch 1 (no history: registration order)"))
    #expect(lines.contains("launch 2 (history of 1 launch: longest path first)"))
    #expect(lines.filter { $0.hasPrefix("  first frame ") }.count == 2)
    #expect(lines.filter { $0.contains("ideal bound") && $0.contains("over the bound") }.count == 2)
    #expect(
      lines.filter { $0.hasPrefix("  background order: ") }
        == orders.map {
          "  background order: \($0.joined(separator: ", "))"
        })
    #expect(lines.filter { $0.hasPrefix("  regressions: none") }.count == 2)
  }

  @Test func aRegressionTheHistoryFoundIsPrinted() {
    let regression = Hazard(
      kind: .regression, service: "TapeIndex",
      detail: "TapeIndex took 90.00 ms, 3.00 times its median of 30.00 ms.",
      duration: .milliseconds(90), baseline: .milliseconds(30))
    let report = LaunchReport(
      processStart: .clock, processStartPrecision: .zero,
      milestones: [
        Milestone(.processStart, at: .zero), Milestone(.firstFrame, at: .milliseconds(10)),
        Milestone(.fullyReady, at: .milliseconds(100)),
      ],
      builds: [], hazards: [regression])
    let run = HistoryRun(
      launches: [
        HistoryRun.Launch(
          report: report, remembered: 4, slowed: ["TapeIndex": 3], workers: 2)
      ], workers: 2)
    #expect(run.launches[0].historyHazards == [regression])
    let text = run.text()
    #expect(
      text.contains("launch 1 (history of 4 launches: longest path first, TapeIndex slowed ×3.00)"))
    #expect(text.contains("  ! TapeIndex took 90.00 ms"))
    #expect(!text.contains("regressions: none"))
  }

  /// The child process waits for the history's job before it exits: `settled()` returns once
  /// every job handed over so far has ended (the delayed ones, an idle timer, are not counted).
  @Test func theTrackingSchedulerIsSettledOnceItsJobsHaveEnded() async {
    let scheduler = TrackingScheduler()
    let ran = Locked<[Int]>([])
    for index in 0..<3 {
      scheduler.schedule(
        LaunchJob(label: "job \(index)", qos: .background) { ran.withLock { $0.append(index) } })
    }
    scheduler.schedule(LaunchJob(label: "timer", qos: .utility) {}, after: .seconds(3_600))
    await scheduler.settled()
    #expect(ran.withLock { $0.sorted() } == [0, 1, 2])
  }
}
