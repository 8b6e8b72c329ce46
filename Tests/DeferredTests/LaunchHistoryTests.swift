import Deferred
import Testing

@Suite struct LaunchHistoryTests {
  private func report(_ costs: [String: Int], firstFrame: Int) -> LaunchReport {
    LaunchReport(
      processStart: .clock, processStartPrecision: .zero,
      milestones: [
        Milestone(.processStart, at: .zero), Milestone(.firstFrame, at: .milliseconds(firstFrame)),
      ],
      builds: costs.sorted { $0.key < $1.key }.map { service, milliseconds in
        BuildRecord(
          service: service, priority: .critical, trigger: .launch, thread: "main",
          isMainThread: true, start: .zero, duration: .milliseconds(milliseconds),
          selfDuration: .milliseconds(milliseconds), outcome: .built, attempt: 1)
      }, transients: [], hazards: [], dependencies: [:])
  }

  @Test func remembersTheMedianOfTheLastLaunchesOnly() {
    let history = LaunchHistory(window: 3)
    for (cost, frame) in [(100, 900), (1, 10), (2, 20), (3, 30)] {
      history.record(report(["Storage": cost], firstFrame: frame))
    }
    #expect(history.launchCount == 4)
    #expect(
      history.costs(of: "Storage").map(\.selfTime) == [
        .milliseconds(1), .milliseconds(2), .milliseconds(3),
      ])
    #expect(history.typicalSelfTime(of: "Storage") == .milliseconds(2))
    #expect(history.typicalOffset(of: .firstFrame) == .milliseconds(20))
    #expect(history.typicalSelfTime(of: "Network") == nil)
  }

  @Test func aChildSharesItsParentsHistory() {
    let history = LaunchHistory()
    let container = Container(history: history)
    #expect(container.makeChild().history === history)
    #expect(Container().history == nil)
  }
}
