/// What a container records of every build, for its launch report.
///
/// ```swift
/// let container = Container(recording: .timingsAndCPU)  // while profiling a launch
/// ```
public enum Recording: Sendable, Hashable {
  /// Nothing: the launch report has milestones only.
  case off
  /// Wall-clock timings, waits, outcomes and attempts of every build, well under a
  /// microsecond a build. The default.
  case timings
  /// Timings, plus the CPU time each build's thread used, which tells running from blocked.
  /// Reading it is a system call, two a build: for profiling sessions, not every launch.
  case timingsAndCPU
}
