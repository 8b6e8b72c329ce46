/// What the command line asks for.
enum Command {
  /// Run every scenario and check (or only the scenarios named), and print a table, or JSON.
  case benchmark(Mode, json: Bool, only: Set<String>? = nil)
  /// Print the usage.
  case help
  /// A hidden subcommand, run in a child process of a benchmark run.
  case child(String, [String])

  static let usage = """
    usage: DeferredBenchmarks [--quick] [--json] [--only NAME,...]

    Compares Deferred with Swinject, swift-dependencies and hand-written baselines: the time
    per operation of each scenario (median, min and max over the repetitions), whether a
    10,000-service chain resolves on a 512 KiB stack, and allocations per cached resolve.

      --quick   run every scenario briefly: to check that they run, not to read the numbers
      --json    print one JSON object on standard output instead of tables
      --only NAME,...
                run only these scenarios (such as resolveCached,resolveWeak), and no checks
      -h, --help
                print this message

    Progress goes to standard error. Build in release:
      swift run -c release --package-path Benchmarks DeferredBenchmarks --json
    """

  /// Parses the arguments after the program's name; `nil` if they are not understood.
  static func parse(_ arguments: [String]) -> Command? {
    if let first = arguments.first, first.hasPrefix("_") {
      return .child(first, Array(arguments.dropFirst()))
    }
    var quick = false
    var json = false
    var only: Set<String>?
    var arguments = arguments[...]
    while let argument = arguments.popFirst() {
      switch argument {
      case "--quick" where !quick: quick = true
      case "--json" where !json: json = true
      case "--only" where only == nil:
        let names = Set((arguments.popFirst() ?? "").split(separator: ",").map(String.init))
        guard !names.isEmpty, names.isSubset(of: Scenario.all.map(\.name)) else { return nil }
        only = names
      case "-h", "--help": return .help
      default: return nil
      }
    }
    return .benchmark(quick ? .quick : .full, json: json, only: only)
  }
}
