/// A scheduler that holds every job until the test runs it: launches step by step, with no
/// thread and no real time involved.
///
/// ```swift
/// let scheduler = ManualScheduler()
/// let container = Container(scheduler: scheduler, clock: scheduler.clock)
/// try container.launch()
/// try container.firstFrameDrawn()
/// #expect(scheduler.queued == ["build SyncService", "build Catalog"])
/// scheduler.runNext()
/// scheduler.runAll()
/// ```
///
/// Delayed jobs become queued when ``clock`` is advanced past their delay. Jobs for the main
/// actor wait in a queue of their own, run one turn at a time by ``runMainNext()``. A build job
/// that makes a build of its own quality of service ready runs that build too, as on a Dispatch
/// queue: one ``runNext()`` can build several services.
public final class ManualScheduler: LaunchScheduler {
  /// The clock that releases delayed jobs.
  public let clock: ManualClock
  private let jobs = Locked<[LaunchJob]>([])
  private let mainJobs = Locked<[LaunchJob]>([])

  /// Creates a scheduler whose delayed jobs wait for `clock`.
  ///
  /// - Parameter clock: The clock to advance to release delayed jobs.
  public init(clock: ManualClock = ManualClock()) {
    self.clock = clock
  }

  /// Queues `job` until the test runs it.
  ///
  /// - Parameter job: The work.
  public func schedule(_ job: LaunchJob) {
    jobs.withLock { $0.append(job) }
  }

  /// Queues `job` once ``clock`` has been advanced by `delay`.
  ///
  /// - Parameters:
  ///   - job: The work.
  ///   - delay: How far the clock must move first.
  public func schedule(_ job: LaunchJob, after delay: Duration) {
    // Weakly: the clock belongs to the scheduler, and a job it holds must not keep it alive.
    clock.schedule(after: delay) { [weak self] in self?.jobs.withLock { $0.append(job) } }
  }

  /// Queues `job` for the main lane, which the test steps on the main actor with
  /// ``runMainNext()``.
  ///
  /// - Parameter job: The work.
  public func scheduleOnMain(_ job: LaunchJob) {
    mainJobs.withLock { $0.append(job) }
  }

  /// The labels of the jobs queued for the main lane, oldest first.
  public var queuedOnMain: [String] { mainJobs.withLock { $0.map(\.label) } }

  /// Runs the oldest job queued for the main lane: one turn of the main queue.
  ///
  /// - Returns: Whether there was a job to run.
  @MainActor @discardableResult
  public func runMainNext() -> Bool {
    let job = mainJobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    job?.run()
    return job != nil
  }

  /// The labels of the queued jobs, oldest first.
  public var queued: [String] { jobs.withLock { $0.map(\.label) } }

  /// Runs the oldest queued job on the calling thread.
  ///
  /// - Returns: Whether there was a job to run.
  @discardableResult
  public func runNext() -> Bool {
    let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    job?.run()
    return job != nil
  }

  /// Runs queued jobs, oldest first, until none is left, including the jobs they queue.
  ///
  /// - Returns: How many jobs ran.
  @discardableResult
  public func runAll() -> Int {
    var count = 0
    while runNext() { count += 1 }
    return count
  }
}
