/// What one initializer cost: one build of one singleton, in a ``LaunchReport``.
///
/// `start` and `end` are offsets from the process start. The container records whole
/// nanoseconds, and the JSON form (``LaunchReport/json(pretty:)``, or `Codable`) keeps them.
public struct BuildRecord: Sendable, Hashable {
  /// How a build ended.
  public enum Outcome: String, Sendable, Hashable, CaseIterable, Codable {
    /// The value was built and cached.
    case built
    /// The factory, or one it needed, threw; see ``BuildRecord/error``.
    case failed
    /// The container shut down before the scheduled build started.
    case cancelled
  }

  /// The service, as its key prints.
  public var service: String
  /// Its priority in this launch (resolved: never one that depends on the launch).
  public var priority: Priority
  /// How the build came about.
  public var trigger: BuildTrigger
  /// The service whose build needed this one, if any.
  public var requestedBy: String?
  /// The thread that ran the factory.
  public var thread: String
  /// Whether that was the main thread.
  public var isMainThread: Bool
  /// For a scheduled build: the quality of service of its queue.
  public var qos: BuildQoS?
  /// For a scheduled build: how long it waited in the queue before it started.
  public var queued: Duration?
  /// When it started, from the process start.
  public var start: Duration
  /// How long it took, including the builds it caused.
  public var duration: Duration
  /// How long it took itself: ``duration`` less the builds it caused.
  public var selfDuration: Duration
  /// The CPU time its thread used meanwhile (less than ``duration`` when it was blocked), where
  /// the clock measures it.
  public var cpu: Duration?
  /// How long other threads spent waiting for this build, all together.
  public var waited: Duration
  /// The threads (and the services they were building) that waited for it.
  public var waiters: [String]
  /// How it ended.
  public var outcome: Outcome
  /// For a failed build: the error.
  public var error: String?
  /// Which attempt this was: 1 for the first build, one more for each later build of the
  /// service (after a failure, a reset of its scope, or a weak service's release); 0 for a
  /// build whose factory never ran: one cancelled by a shutdown, or a scheduled build that
  /// failed because what it needs failed (its own time is then zero).
  public var attempt: Int
  /// The generation of the service this build made: 0 for the first; one more after each
  /// ``Container/reset(_:)`` that dropped the service, or each time a weak service was built
  /// anew once its last holder let it go.
  public var generation: Int
  /// In a child's report, the ancestor a shared service's build ran in: `root`, or where a
  /// child was made (`File.swift:12`); `nil` for the report's own container.
  public var container: String?

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
  ///   - generation: The generation of the service it made.
  ///   - container: The container it ran in, if not the report's own.
  public init(
    service: String, priority: Priority, trigger: BuildTrigger, requestedBy: String? = nil,
    thread: String, isMainThread: Bool, qos: BuildQoS? = nil, queued: Duration? = nil,
    start: Duration, duration: Duration, selfDuration: Duration, cpu: Duration? = nil,
    waited: Duration = .zero, waiters: [String] = [], outcome: Outcome, error: String? = nil,
    attempt: Int, generation: Int = 0, container: String? = nil
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
    self.generation = generation
    self.container = container
  }

  /// When it ended, from the process start.
  public var end: Duration { start + duration }

  /// The stage of the launch its priority puts it in (reports group builds by it).
  public var stage: LaunchStage { priority.stage }
}

extension BuildRecord: Codable {
  private enum CodingKeys: String, CodingKey {
    case service, priority, idleDelayNs, trigger, requestedBy, thread, mainThread, qos, queuedNs,
      startNs, durationNs, selfNs, cpuNs, waitedNs, waiters, outcome, error, attempt, generation,
      container
  }

  /// Reads a record in the shape of the report's JSON schema (`Docs/ReportSchema.md`).
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a missing field or a value of the wrong kind.
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      service: try values.decode(String.self, forKey: .service),
      priority: try values.decodePriority(forKey: .priority, delayKey: .idleDelayNs),
      trigger: try values.decode(BuildTrigger.self, forKey: .trigger),
      requestedBy: try values.decodeIfPresent(String.self, forKey: .requestedBy),
      thread: try values.decode(String.self, forKey: .thread),
      isMainThread: try values.decodeIfPresent(Bool.self, forKey: .mainThread) ?? false,
      qos: try values.decodeIfPresent(BuildQoS.self, forKey: .qos),
      queued: try values.decodeNanosecondsIfPresent(forKey: .queuedNs),
      start: try values.decodeNanoseconds(forKey: .startNs),
      duration: try values.decodeNanoseconds(forKey: .durationNs),
      selfDuration: try values.decodeNanoseconds(forKey: .selfNs),
      cpu: try values.decodeNanosecondsIfPresent(forKey: .cpuNs),
      waited: try values.decodeNanosecondsIfPresent(forKey: .waitedNs) ?? .zero,
      waiters: try values.decodeIfPresent([String].self, forKey: .waiters) ?? [],
      outcome: try values.decode(Outcome.self, forKey: .outcome),
      error: try values.decodeIfPresent(String.self, forKey: .error),
      attempt: try values.decodeIfPresent(Int.self, forKey: .attempt) ?? 1,
      generation: try values.decodeIfPresent(Int.self, forKey: .generation) ?? 0,
      container: try values.decodeIfPresent(String.self, forKey: .container))
  }

  /// Writes the record in the shape of the report's JSON schema: times in whole nanoseconds.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var values = encoder.container(keyedBy: CodingKeys.self)
    try values.encode(service, forKey: .service)
    try values.encodePriority(priority, forKey: .priority, delayKey: .idleDelayNs)
    try values.encode(trigger, forKey: .trigger)
    try values.encode(requestedBy, forKey: .requestedBy)
    try values.encode(thread, forKey: .thread)
    try values.encode(isMainThread, forKey: .mainThread)
    try values.encode(qos, forKey: .qos)
    try values.encodeNanoseconds(queued, forKey: .queuedNs)
    try values.encodeNanoseconds(start, forKey: .startNs)
    try values.encodeNanoseconds(duration, forKey: .durationNs)
    try values.encodeNanoseconds(selfDuration, forKey: .selfNs)
    try values.encodeNanoseconds(cpu, forKey: .cpuNs)
    try values.encodeNanoseconds(waited, forKey: .waitedNs)
    try values.encode(waiters, forKey: .waiters)
    try values.encode(outcome, forKey: .outcome)
    try values.encode(error, forKey: .error)
    try values.encode(attempt, forKey: .attempt)
    // Only for a later generation: reports of apps without scopes stay as they were.
    if generation > 0 { try values.encode(generation, forKey: .generation) }
    // Only in a child's report, for what it shares with its ancestors.
    try values.encodeIfPresent(container, forKey: .container)
  }
}
