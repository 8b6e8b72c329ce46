/// What a container records of every build, for its launch report.
///
/// ```swift
/// let container = Container(recording: .timingsAndCPU)  // while profiling a launch
/// ```
public enum Recording: Sendable, Hashable {
  /// Nothing: the launch report has milestones only.
  case off
  /// Wall-clock timings, waits, outcomes and attempts of every build: two clock readings and
  /// one append per build, well under a microsecond. The default.
  case timings
  /// Timings, plus the CPU time each build's thread used, which tells running from blocked.
  /// Reading a thread's CPU time is a system call on Linux (about 0.7 µs each on a virtual
  /// machine; two a build), so this is for profiling sessions rather than every launch.
  case timingsAndCPU
}
