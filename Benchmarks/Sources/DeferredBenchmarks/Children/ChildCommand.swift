/// The hidden subcommands the benchmark runs itself with, in a child process.
enum ChildCommand {
  /// `_cold-first-resolve CONTENDER LENGTH`: prints nanoseconds per service (see ``ColdChild``).
  static let coldFirstResolve = "_cold-first-resolve"
  /// `_survive-deep-chain CONTENDER`: prints `survived`, or crashes (see ``DeepChainChild``).
  static let surviveDeepChain = "_survive-deep-chain"
  /// `_profile WORKLOAD COUNT`: runs one Deferred operation COUNT times, for a profiler such as
  /// callgrind (see ``ProfileChild``).
  static let profile = "_profile"
  /// `_gate WORKLOAD COUNT [uncounted]`: runs one workload of the performance gate and prints
  /// its allocations, or with `uncounted` counts none, for callgrind to count its instructions
  /// (see ``GateChild``).
  static let gate = "_gate"
  /// `_register-cold FORM LENGTH`: prints nanoseconds per registration (see
  /// ``RegisterColdChild``).
  static let registerCold = "_register-cold"
  /// `_memory CONTENDER COUNT`: prints the bytes registering and building COUNT services kept
  /// (see ``MemoryChild``).
  static let memory = "_memory"
  /// `_scheduling-quality quick|full`: measures ``SchedulingQuality`` alone and prints its
  /// table.
  static let schedulingQuality = "_scheduling-quality"

  /// Runs the hidden subcommand `name`, or returns `nil` if there is none of that name.
  static func run(_ name: String, _ arguments: [String]) -> Int32? {
    switch (name, arguments.count) {
    case (coldFirstResolve, 2): Int(arguments[1]).map { ColdChild.run(arguments[0], length: $0) }
    case (surviveDeepChain, 1): DeepChainChild.run(arguments[0])
    case (profile, 2): Int(arguments[1]).map { ProfileChild.run(arguments[0], count: $0) }
    case (gate, 2): Int(arguments[1]).map { GateChild.run(arguments[0], count: $0) }
    case (gate, 3) where arguments[2] == "uncounted":
      Int(arguments[1]).map {
        GateChild.run(arguments[0], count: $0, countingAllocations: false)
      }
    case (registerCold, 2):
      Int(arguments[1]).map { RegisterColdChild.run(arguments[0], length: $0) }
    case (memory, 2): Int(arguments[1]).map { MemoryChild.run(arguments[0], count: $0) }
    case (schedulingQuality, 1) where ["quick", "full"].contains(arguments[0]):
      {
        print(SchedulingQuality.check(arguments[0] == "quick" ? .quick : .full).table)
        return 0
      }()
    default: nil
    }
  }
}
