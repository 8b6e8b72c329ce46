/// What a transition of the ``LaunchSchedule`` asks the container to do, outside the launch
/// lock: builds to hand to the scheduler, the build the finishing thread runs next, and the
/// rarer events (timers, waiters, cancellations) in the order they came.
///
/// The end of a build, the common transition, asks for builds and the next one only: the
/// rarer parts share one list, so that the work it returns through the lock holds three
/// references.
struct LaunchWork {
  /// Something other than a build to do.
  enum Event {
    /// Arm a timer that releases the idle entries of at most this delay.
    case timer(Duration)
    /// Tell this waiter that the app is fully ready.
    case ready(LaunchSchedule.Waiter)
    /// Tell this waiter that the container shut down: a continuation throws, a callback is
    /// released uncalled.
    case shutDown(LaunchSchedule.Waiter)
    /// Record that a shutdown cancelled this build.
    case cancelled(ScheduledBuild)
  }

  /// Builds to hand to the scheduler, a job each.
  var submit: [ScheduledBuild] = []
  /// The build the finishing thread runs next, started already.
  var next: ScheduledRun?
  /// Everything else to do, in order.
  var events: [Event] = []
  /// For a shutdown: whether builds may be running, to wait for.
  var awaitRunning = false
  /// Milestones this transition reached, to mark for Instruments.
  var reachedFirstFrame = false
  var reachedFullyReady = false
}

/// A build the schedule hands out, to give to the scheduler or to record as cancelled: its
/// entry's number, by which the job names it to the schedule, and what the container needs to
/// know of it outside the launch lock.
struct ScheduledBuild {
  let id: LaunchSchedule.EntryID
  let node: AnyNode
  let priority: Priority
  /// Whether it is built on the main-thread lane.
  let isMainLane: Bool
}

/// A scheduled build about to run: its entry's number and service, and what its build context
/// records. The launch's flags are read once a job (``LaunchSchedule/runFlags``), not carried
/// by each build.
struct ScheduledRun: Sendable {
  let id: LaunchSchedule.EntryID
  let node: AnyNode
  let qos: BuildQoS
  /// Whether its factory is async (run in a task, holding no thread).
  let isAsync: Bool
  /// Whether it is built on the main-thread lane.
  let isMainLane: Bool
  let readyAt: UInt64?
  /// When the schedule started it.
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
