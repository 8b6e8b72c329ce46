import Dispatch

/// Runs a container's deferred builds.
///
/// ``DispatchScheduler`` runs them on Dispatch's global queues; ``ManualScheduler`` holds them
/// until a test runs them, one at a time or all at once. A scheduler only runs jobs: the
/// container decides what to build, in which order and how many at once.
public protocol LaunchScheduler: Sendable {
  /// Runs `job` in the background, soon.
  ///
  /// - Parameter job: The work, with its label and quality of service.
  func schedule(_ job: LaunchJob)

  /// Runs `job` in the background once `delay` has passed.
  ///
  /// - Parameters:
  ///   - job: The work, with its label and quality of service.
  ///   - delay: How long to wait first.
  func schedule(_ job: LaunchJob, after delay: Duration)

  /// Runs `job` on the main actor, after whatever the main queue holds already: a build of the
  /// main-thread lane (one per turn of the main queue), or a main-actor service that another
  /// thread needs.
  ///
  /// - Parameter job: The work.
  func scheduleOnMain(_ job: LaunchJob)
}

extension LaunchScheduler {
  /// Runs `job` on the main queue, the main actor's executor.
  ///
  /// - Parameter job: The work.
  public func scheduleOnMain(_ job: LaunchJob) {
    DispatchQueue.main.async { job.run() }
  }
}

/// One piece of deferred work a container hands its scheduler: usually the build of one
/// service.
public struct LaunchJob: Sendable {
  /// What the job does, such as `build SyncService` (made when asked for).
  public var label: String { describe() }
  /// The quality of service the job asks for.
  public let qos: BuildQoS
  private let describe: @Sendable () -> String
  private let work: @Sendable () -> Void

  /// Creates a job.
  ///
  /// - Parameters:
  ///   - label: What the job does.
  ///   - qos: The quality of service it asks for.
  ///   - work: The work.
  public init(label: String, qos: BuildQoS, work: @escaping @Sendable () -> Void) {
    self.init(describing: label, qos: qos, work: work)
  }

  init(
    describing label: @escaping @autoclosure @Sendable () -> String, qos: BuildQoS,
    work: @escaping @Sendable () -> Void
  ) {
    self.describe = label
    self.qos = qos
    self.work = work
  }

  /// Does the work, on the calling thread.
  public func run() { work() }
}
