/// What a transition of the ``LaunchSchedule`` asks the container to do, outside the launch
/// lock: builds to hand to the scheduler, the build the finishing thread runs next, timers to
/// arm, waiters to tell, cancelled builds to record.
struct LaunchWork {
  /// Builds to hand to the scheduler, a job each.
  var submit: [ScheduledBuild] = []
  /// The build the finishing thread runs next, started already.
  var next: ScheduledRun?
  /// Idle delays to arm a timer for.
  var timers: [Duration] = []
  /// To tell that the app is fully ready.
  var ready: [LaunchSchedule.Waiter] = []
  /// To tell that the container shut down: continuations throw, callbacks are released
  /// uncalled.
  var shutDown: [LaunchSchedule.Waiter] = []
  /// Entries a shutdown cancelled, to record.
  var cancelled: [ScheduledBuild] = []
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
