import Dispatch
import Testing

@testable import Deferred

/// Durations at and past the ends of what a clock holds: every entry point that takes one
/// saturates (a duration of 292 years or more is "never"), and a negative one counts as zero.
@Suite struct DurationLimitTests {
  static let forever = Duration.seconds(Int64.max)

  // MARK: - The conversion

  @Test func nanosecondsSaturateAtBothEnds() {
    #expect(Duration.zero.nanoseconds == 0)
    #expect(Duration.nanoseconds(1).nanoseconds == 1)
    #expect(Duration.seconds(1).nanoseconds == 1_000_000_000)
    #expect(Duration.nanoseconds(Int64.max).nanoseconds == UInt64(Int64.max))
    // Past `Int64`'s nanoseconds, inside `UInt64`'s: exact.
    #expect(Duration.seconds(10_000_000_000).nanoseconds == 10_000_000_000_000_000_000)
    // `UInt64.max` nanoseconds exactly, then one past it.
    let most = Duration.seconds(18_446_744_073) + .nanoseconds(709_551_615)
    #expect(most.nanoseconds == .max)
    #expect((most + .nanoseconds(1)).nanoseconds == .max)
    #expect(Self.forever.nanoseconds == .max)
    #expect(Duration.seconds(Int64.max).nanoseconds == .max)
    // Negative: zero, whole seconds or a fraction.
    #expect(Duration.seconds(-1).nanoseconds == 0)
    #expect(Duration.milliseconds(-500).nanoseconds == 0)
    #expect(Duration.seconds(Int64.min).nanoseconds == 0)
  }

  @Test func secondsReadFromAReportSaturate() {
    #expect(Duration(saturatingSeconds: 1.5) == .milliseconds(1_500))
    #expect(Duration(saturatingSeconds: 1e40) == .seconds(Double(Int64.max)))
    #expect(Duration(saturatingSeconds: -.infinity) == .seconds(-Double(Int64.max)))
    #expect(Duration(saturatingSeconds: .nan) == nil)
    #expect(
      Priority(reportName: "idle(1e+40 seconds)") == .idle(after: .seconds(Double(Int64.max))))
    #expect(Priority(reportName: "idle(inf seconds)") == .idle(after: .seconds(Double(Int64.max))))
    #expect(Priority(reportName: "idle(nan seconds)") == nil)
  }

  @Test func deadlinesSaturate() {
    #expect(deadline(after: .seconds(1), from: 5) == 1_000_000_005)
    #expect(deadline(after: Self.forever, from: 0) == .max)
    #expect(deadline(after: .nanoseconds(2), from: .max - 1) == .max)
    #expect(deadline(after: .seconds(-3), from: 7) == 7)
    #expect(DispatchTime.after(Self.forever) == .distantFuture)
    #expect(DispatchTime.after(.seconds(Int64.max / 1_000_000_000)) == .distantFuture)
    let before = DispatchTime.now()
    let soon = DispatchTime.after(.seconds(-1))
    #expect(soon >= before && soon <= DispatchTime.now())
    let inAnHour = DispatchTime.after(.seconds(3_600)).uptimeNanoseconds
    #expect(inAnHour >= before.uptimeNanoseconds + 3_600_000_000_000)
  }

  // MARK: - ManualClock

  @Test func aManualClockAdvancedPastItsEndStopsThere() {
    let clock = ManualClock(start: 5)
    clock.advance(by: Self.forever)
    #expect(clock.now() == .max)
    clock.advance(by: Self.forever)
    #expect(clock.now() == .max)
  }

  @Test func aManualClockNeverGoesBack() {
    let clock = ManualClock(start: 1_000)
    clock.advance(by: .seconds(-1))
    #expect(clock.now() == 1_000)
    clock.advance(by: .seconds(Int64.min))
    #expect(clock.now() == 1_000)
  }

  @Test func aJobDelayedForeverWaitsUntilTheClockReachesItsEnd() {
    let scheduler = ManualScheduler(clock: ManualClock(start: 5))
    scheduler.schedule(LaunchJob(label: "late", qos: .utility) {}, after: Self.forever)
    scheduler.schedule(LaunchJob(label: "now", qos: .utility) {}, after: .seconds(-1))
    #expect(scheduler.queued == ["now"])
    scheduler.clock.advance(by: .seconds(3_600 * 24 * 365 * 100))
    #expect(scheduler.queued == ["now"])
    scheduler.clock.advance(by: Self.forever)
    #expect(scheduler.queued == ["now", "late"])
  }

  // MARK: - Idle priorities

  @Test func anIdleDelayOfForeverWaitsForIdleness() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    let runs = Runs()
    try container.register(Storage.self, priority: .idle(after: Self.forever)) {
      runs.tick("storage")
      return Storage()
    }
    try container.launch()
    try container.firstFrameDrawn()
    scheduler.runAll()
    #expect(runs["storage"] == 0)
    scheduler.clock.advance(by: .seconds(3_600 * 24 * 365))
    scheduler.runAll()
    #expect(runs["storage"] == 0)
    #expect(!container.isFullyReady)
    container.appIsIdle()
    scheduler.runAll()
    #expect(runs["storage"] == 1)
    #expect(container.isFullyReady)
    // The report keeps the delay, saturated, and reads back.
    let report = container.launchReport()
    #expect(report.builds.first?.priority.idleDelay == Self.forever)
    let read = try LaunchReport(json: report.json())
    #expect(read.builds.first?.priority.idleDelay == .nanoseconds(Int64.max))
  }

  @Test func aNegativeIdleDelayReleasesAtTheFirstFrame() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Storage.self, priority: .idle(after: .seconds(-5))) { Storage() }
    try container.launch()
    try container.firstFrameDrawn()
    scheduler.runAll()
    #expect(container.isFullyReady)
  }

  /// The default scheduler hands Dispatch a deadline it can hold: the timer never fires, and
  /// idleness builds the service.
  @Test func theDispatchSchedulerTakesAnIdleDelayOfForever() async throws {
    let container = Container()
    try container.register(Storage.self, priority: .idle(after: Self.forever)) { Storage() }
    try container.launch()
    try container.firstFrameDrawn()
    container.appIsIdle()
    try await container.fullyReady()
    #expect(try container.resolve(Storage.self).label == "disk")
  }

  // MARK: - Wait limits

  /// A wait limit of forever waits until the build ends. The builder is released when the
  /// waiter is about to block, so the waiter computes its deadline while the build runs.
  @Test func aWaitLimitOfForeverWaitsForTheBuild() throws {
    let container = Container(waitLimit: Self.forever)
    let started = Signal()
    let release = Signal()
    try container.register(Storage.self) {
      started.fire()
      release.wait()
      return Storage()
    }
    container.onWait { _ in release.fire() }
    let group = DispatchGroup()
    startThread(in: group) { _ = try? container.resolve(Storage.self) }
    started.wait()
    #expect(try container.resolve(Storage.self).label == "disk")
    group.wait()
  }

  /// A negative wait limit does not wait: the resolve fails at once, naming the holder.
  @Test func aNegativeWaitLimitTimesOutAtOnce() throws {
    let container = Container(waitLimit: .seconds(-1))
    let started = Signal()
    let release = Signal()
    try container.register(Storage.self) {
      started.fire()
      release.wait()
      return Storage()
    }
    let group = DispatchGroup()
    startThread(in: group) { _ = try? container.resolve(Storage.self) }
    started.wait()
    let error = #expect(throws: DeferredError.self) { try container.resolve(Storage.self) }
    #expect(error?.code == .waitTimedOut)
    release.fire()
    group.wait()
  }

  /// The same for a cached argument factory's value made by another thread.
  @Test func aNegativeWaitLimitTimesOutAtOnceOnACachedArgument() throws {
    let container = Container(waitLimit: .seconds(-1))
    let started = Signal()
    let release = Signal()
    let key = try container.register(Box.self, argument: Int.self, cachingUpTo: 4) { id in
      started.fire()
      release.wait()
      return Box(id)
    }
    let group = DispatchGroup()
    startThread(in: group) { _ = try? container.resolve(key, argument: 1) }
    started.wait()
    let error = #expect(throws: DeferredError.self) { try container.resolve(key, argument: 1) }
    #expect(error?.code == .waitTimedOut)
    release.fire()
    group.wait()
  }
}
