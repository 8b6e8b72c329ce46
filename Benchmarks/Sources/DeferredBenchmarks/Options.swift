/// What the command line asks for.
enum Command {
  /// Run every scenario and check (or only the scenarios named), and print a table, or JSON.
  /// `compileTime` is the file `Scripts/compile-time.sh --output` wrote, if one was given.
  case benchmark(Mode, json: Bool, compileTime: String? = nil, only: Set<String>? = nil)
  /// Print the usage.
  case help
  /// A hidden subcommand, run in a child process of a benchmark run.
  case child(String, [String])

  static let usage = """
    usage: DeferredBenchmarks [--quick] [--json] [--compile-time FILE] [--only NAME,...]

    Compares Deferred with Swinject, swift-dependencies and hand-written baselines: the time
    per operation of each scenario (median, min and max over the repetitions), whether a
    10,000-service chain resolves on a 512 KiB stack, and allocations per cached resolve.

      --quick   run every scenario briefly: to check that they run, not to read the numbers
      --json    print one JSON object on standard output instead of tables
      --compile-time FILE
                include the compile-time figures that Scripts/compile-time.sh --output FILE
                wrote (its "compileTime1000" object) in the JSON
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
    var compileTime: String?
    var only: Set<String>?
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--quick" where !quick: quick = true
      case "--json" where !json: json = true
      case "--compile-time" where compileTime == nil:
        guard let file = rest.popFirst() else { return nil }
        compileTime = file
      case "--only" where only == nil:
        let names = Set((rest.popFirst() ?? "").split(separator: ",").map(String.init))
        guard !names.isEmpty, names.isSubset(of: Scenario.all.map(\.name)) else { return nil }
        only = names
      case "-h", "--help": return .help
      default: return nil
      }
    }
    return .benchmark(
      quick ? .quick : .full, json: json, compileTime: compileTime, only: only)
  }
}
