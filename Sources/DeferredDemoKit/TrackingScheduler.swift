import Deferred
import Dispatch

/// Dispatch's scheduler, keeping count of the jobs it runs at once, so that a process can wait
/// for the container's background jobs (recording its launch in the history) before it exits.
public struct TrackingScheduler: LaunchScheduler {
  private let base = DispatchScheduler()
  private let jobs = DispatchGroup()

  /// Creates a scheduler on Dispatch's global queues.
  public init() {}

  /// Runs `job` on the global queue of its quality of service, counted until it ends.
  ///
  /// - Parameter job: The job.
  public func schedule(_ job: LaunchJob) {
    jobs.enter()
    base.schedule(
      LaunchJob(label: job.label, qos: job.qos) { [jobs] in
        job.run()
        jobs.leave()
      })
  }

  /// Runs `job` after `delay`, not counted: an idle timer may never be needed.
  ///
  /// - Parameters:
  ///   - job: The job.
  ///   - delay: How long to wait first.
  public func schedule(_ job: LaunchJob, after delay: Duration) {
    base.schedule(job, after: delay)
  }

  /// Returns once every job handed to ``schedule(_:)`` so far has ended.
  public func settled() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      jobs.notify(queue: .global()) { continuation.resume() }
    }
  }
}
