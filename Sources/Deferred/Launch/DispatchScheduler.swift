import Dispatch

/// The default scheduler: Dispatch's global concurrent queues, by quality of service.
public struct DispatchScheduler: LaunchScheduler {
  /// Creates the scheduler.
  public init() {}

  /// Runs `job` on the global queue of its quality of service.
  ///
  /// - Parameter job: The work.
  public func schedule(_ job: LaunchJob) {
    DispatchQueue.global(qos: job.qos.dispatchQoS).async { job.run() }
  }

  /// Runs `job` on the global queue of its quality of service after `delay`.
  ///
  /// - Parameters:
  ///   - job: The work.
  ///   - delay: How long to wait first.
  public func schedule(_ job: LaunchJob, after delay: Duration) {
    DispatchQueue.global(qos: job.qos.dispatchQoS).asyncAfter(deadline: .after(delay)) {
      job.run()
    }
  }
}

extension BuildQoS {
  var dispatchQoS: DispatchQoS.QoSClass {
    switch self {
    case .userInitiated: .userInitiated
    case .utility: .utility
    case .background: .background
    }
  }
}
