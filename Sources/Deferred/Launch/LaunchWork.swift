/// What a transition of the ``LaunchSchedule`` asks the container to do, outside the launch
/// lock: builds to hand to the scheduler, the build this thread runs next, and the rarer
/// events in the order they came.
struct LaunchWork {
  enum Event {
    /// Arm a timer that releases the idle entries of at most this delay.
    case timer(Duration)
    case ready(LaunchSchedule.Waiter)
    case shutDown(LaunchSchedule.Waiter)
    /// Record that a shutdown cancelled this build.
    case cancelled(ScheduledBuild)
  }

  var submit: [ScheduledBuild] = []
  /// The build this thread runs next, started already.
  var next: ScheduledRun?
  var events: [Event] = []
  /// For a shutdown: whether builds may be running, to wait for.
  var awaitRunning = false
  var reachedFirstFrame = false
  var reachedFullyReady = false
}

/// A build the schedule hands out, to give to the scheduler or to record as cancelled.
struct ScheduledBuild {
  let id: LaunchSchedule.EntryID
  let node: AnyNode
  let priority: Priority
  let isMainLane: Bool
}

/// A scheduled build about to run, and what its build context records.
struct ScheduledRun: Sendable {
  let id: LaunchSchedule.EntryID
  let node: AnyNode
  let qos: BuildQoS
  let isAsync: Bool
  let isMainLane: Bool
  let readyAt: UInt64?
  let startedAt: UInt64

  /// Sets `context` up for this build, with the launch's `flags` (`nil` if it has none).
  func prepare(_ context: BuildContext, flags: Set<LaunchFlag>?) {
    context.trigger = .scheduled
    if let flags {
      context.flags = flags
    } else if !context.flags.isEmpty {
      context.flags = []
    }
    context.scheduled = node
    context.qos = qos
    context.readyAt = readyAt
  }
}
