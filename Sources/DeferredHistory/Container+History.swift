import Deferred

extension Container {
  /// Creates an empty container that keeps a launch history: it orders its background builds
  /// by their longest remaining path of past costs, records each launch once fully ready, and
  /// names the regressions in its reports.
  ///
  /// ```swift
  /// let container = Container(history: LaunchHistory(directory: cachesDirectory))
  /// ```
  ///
  /// - Parameters:
  ///   - scheduler: Runs the builds deferred past the first frame; Dispatch's global queues by
  ///     default.
  ///   - clock: Times the launch; the system's monotonic clock by default.
  ///   - waitLimit: How long a thread may wait for another thread's build of a service; `nil`,
  ///     the default, waits as long as it takes.
  ///   - maxConcurrentBuilds: How many synchronous deferred builds may run at once; the number
  ///     of active processors by default.
  ///   - recording: What to record of every build: `Recording.timings` by default.
  ///   - history: What past launches cost; `nil` keeps none.
  public convenience init(
    scheduler: any LaunchScheduler = DispatchScheduler(),
    clock: any LaunchClock = MonotonicClock(),
    waitLimit: Duration? = nil,
    maxConcurrentBuilds: Int? = nil,
    recording: Recording = .timings,
    history: LaunchHistory?
  ) {
    self.init(
      scheduler: scheduler, clock: clock, waitLimit: waitLimit,
      maxConcurrentBuilds: maxConcurrentBuilds, recording: recording, pastLaunches: history)
  }

  /// What past launches cost, if the container was made with a history; a child shares its
  /// parent's. The container (not a child) records its launch in it once fully ready, in a
  /// background job.
  public var history: LaunchHistory? { pastLaunches as? LaunchHistory }
}
