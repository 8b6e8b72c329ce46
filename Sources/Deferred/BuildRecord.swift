/// What one initializer cost: one build of one singleton, in a ``LaunchReport``.
///
/// Times are nanoseconds; `start` is an offset from the process start.
public struct BuildRecord: Sendable, Hashable {
  /// How a build ended.
  public enum Outcome: String, Sendable, Hashable {
    /// The value was built and cached.
    case built
    /// The factory, or one it needed, threw; see ``BuildRecord/error``.
    case failed
    /// The container shut down before the scheduled build started.
    case cancelled
  }

  /// The service, as its key prints.
  public var service: String
  /// Its priority in this launch, such as `critical` or `afterFirstFrame(utility)`.
  public var priority: String
  /// How the build came about: `launch`, `scheduled` (a deferred job) or `onDemand`.
  public var trigger: String
  /// The service whose build needed this one, if any.
  public var requestedBy: String?
  /// The thread that ran the factory.
  public var thread: String
  /// Whether that was the main thread.
  public var isMainThread: Bool
  /// For a scheduled build: the quality of service of its queue.
  public var qos: String?
  /// For a scheduled build: how long it waited in the queue before it started.
  public var queued: UInt64?
  /// When it started, from the process start.
  public var start: UInt64
  /// How long it took, including the builds it caused.
  public var duration: UInt64
  /// How long it took itself: ``duration`` less the builds it caused.
  public var selfDuration: UInt64
  /// The CPU time its thread used meanwhile (less than ``duration`` when it was blocked), where
  /// the clock measures it.
  public var cpu: UInt64?
  /// How long other threads spent waiting for this build, all together.
  public var waited: UInt64
  /// The threads (and the services they were building) that waited for it.
  public var waiters: [String]
  /// How it ended.
  public var outcome: Outcome
  /// For a failed build: the error.
  public var error: String?
  /// Which attempt this was: 1 for the first build, more after failures.
  public var attempt: Int

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - service: The service.
  ///   - priority: Its priority.
  ///   - trigger: How the build came about.
  ///   - requestedBy: The service that needed it.
  ///   - thread: The thread that built it.
  ///   - isMainThread: Whether that was the main thread.
  ///   - qos: The quality of service of its queue.
  ///   - queued: How long it waited in the queue.
  ///   - start: When it started, from the process start.
  ///   - duration: How long it took.
  ///   - selfDuration: How long it took, less the builds it caused.
  ///   - cpu: The CPU time its thread used.
  ///   - waited: How long others waited for it.
  ///   - waiters: Who waited.
  ///   - outcome: How it ended.
  ///   - error: The error, if it failed.
  ///   - attempt: Which attempt it was.
  public init(
    service: String, priority: String, trigger: String, requestedBy: String? = nil,
    thread: String, isMainThread: Bool, qos: String? = nil, queued: UInt64? = nil,
    start: UInt64, duration: UInt64, selfDuration: UInt64, cpu: UInt64? = nil,
    waited: UInt64 = 0, waiters: [String] = [], outcome: Outcome, error: String? = nil,
    attempt: Int
  ) {
    self.service = service
    self.priority = priority
    self.trigger = trigger
    self.requestedBy = requestedBy
    self.thread = thread
    self.isMainThread = isMainThread
    self.qos = qos
    self.queued = queued
    self.start = start
    self.duration = duration
    self.selfDuration = selfDuration
    self.cpu = cpu
    self.waited = waited
    self.waiters = waiters
    self.outcome = outcome
    self.error = error
    self.attempt = attempt
  }

  /// When it ended, from the process start.
  public var end: UInt64 { start + duration }

  /// The launch phase of its priority: `critical`, `afterFirstFrame`, `idle` or `onDemand`.
  public var phase: String {
    String(priority.prefix { $0 != "(" })
  }
}
