/// What the command line asks for.
public enum Command: Sendable, Hashable {
  /// No arguments: launch each mode once in a fresh process and show both.
  case tour
  /// One launch in this process.
  case launch(LaunchOptions)
  /// Many launches of each mode, each in a fresh process, and their statistics.
  case compare(CompareOptions)
  /// An eager launch's advice, the deferred launch it predicts, and the deferred launch.
  case advise(AdviseOptions)
  /// Launches of the deferred app with a launch history on disk, and what it learns.
  case history(HistoryOptions)
  /// MetricKit payloads from the field, joined to a launch of the demo app.
  case field(FieldOptions)
  /// The usage.
  case help

  /// How to call the demo.
  public static let usage = """
    usage: DeferredDemo [tour]
           DeferredDemo launch --mode eager|deferred [--json] [--trace FILE] [--svg FILE]
                               [--slowdown X] [--history DIR] [--workers N] [--slow S=X]
           DeferredDemo compare [--runs N] [--json] [--slowdown X]
           DeferredDemo advise [--slowdown X]
           DeferredDemo history [--runs N] [--workers N] [--history-dir DIR] [--slow S=X]
                                [--slowdown X]
           DeferredDemo field [--payload FILE]... [--json] [--slowdown X]
           DeferredDemo help

    With no arguments, or tour, launches the demo app once in each mode, each in a fresh process, and
    shows both launches' timelines, their times to the first frame and to full readiness, and
    where it wrote their Chrome traces and SVG timelines.

    launch       one launch in this process; prints its report
      --mode M       eager: every service built before the first frame, on the main thread;
                     deferred: only what the first frame needs, the rest after it or on first use
      --json         print the report as JSON (schema deferred.launch-report/1)
      --trace FILE   write a Chrome trace of the launch (chrome://tracing, ui.perfetto.dev)
      --svg FILE     write an SVG timeline of the launch
      --slowdown X   scale every service's work by X (at least 1), for a slower device
      --data DIR     use app files an earlier run installed in DIR
      --screen S     draw the app's screen on stdout, stderr or none
                     (default: stdout; none with --json)
      --color        draw the screen in colour even when it is not a terminal
      --history DIR  keep a launch history in DIR: it orders the background builds (longest
                     remaining path first) and the launch is recorded in it
      --workers N    deferred builds at once (default: one a core)
      --slow S=X     scale service S's work by X (S: Achievements, LocationProvider,
                     SimulatedRemote, Suggestions, TapeIndex, ThemeEngine, TipsCatalog)
    compare      launches N fresh processes per mode, interleaved, timed from their spawn;
                 prints the median and 95th percentile of each mode's times, and the deferred
                 app's work after its first frame over its ideal bound (see history)
      --runs N       launches per mode (default 10)
      --json         print one JSON object
      --slowdown X   as for launch

    advise       launches the eager app in a fresh process, prints the advice its report
                 gives and the deferred launch that advice predicts, then launches the
                 deferred app and prints predicted against measured
      --slowdown X   as for launch

    history      launches the deferred app N times, each in a fresh process, with a launch
                 history on disk; prints each launch's first frame, full readiness, the ideal
                 bound of its work after the first frame, max(critical path, work / workers),
                 full readiness over it, the order its background builds started in, and the
                 regressions the history found
      --runs N          launches (default 5)
      --workers N       deferred builds at once (default 2: more are ready than run, so the
                        order matters)
      --history-dir DIR keep the history in DIR and leave it there: run again to watch it
                        learn (default: a temporary directory, removed afterwards)
      --slow S=X        the last launch scales service S's work by X, as for launch: a
                        regression its report names (with 3 launches in the history before it)
      --slowdown X      as for launch

    field        launches the deferred app in this process, reads MetricKit payloads (what
                 MXMetricPayload.jsonRepresentation() returns) and prints the field's launch
                 histograms, phases and services (count, median, 90th percentile) beside this
                 launch's times, and the services whose field cost grew between payloads
      --payload FILE    a payload file, oldest first; repeat for several days (default: the
                        two days in Tests/DeferredMetricKitTests/Fixtures, from the package's
                        root)
      --json            print the field report as JSON (schema deferred.field-report/1)
      --slowdown X      as for launch

    Network latency is simulated (Task.sleep); every other piece of work is real.
    """

  /// Reads the command line.
  ///
  /// - Parameter arguments: The arguments, without the program's name.
  /// - Returns: The command.
  /// - Throws: ``UsageError`` for anything it does not understand.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    guard let verb = arguments.first else { return .tour }
    var reader = OptionReader(
      Array(arguments.dropFirst()), command: verb,
      repeatable: verb == "field" ? ["--payload"] : [])
    switch verb {
    case "tour":
      try reader.finish()
      return .tour
    case "help", "--help", "-h":
      try reader.finish()
      return .help
    case "launch":
      var mode: LaunchMode?
      var options = LaunchOptions(mode: .deferred)
      while let option = try reader.next() {
        switch option {
        case "--mode":
          let value = try reader.value(for: option)
          guard let parsed = LaunchMode(rawValue: value) else {
            throw UsageError("--mode must be eager or deferred, not \"\(value)\"")
          }
          mode = parsed
        case "--json": options.json = true
        case "--trace": options.tracePath = try reader.value(for: option)
        case "--svg": options.svgPath = try reader.value(for: option)
        case "--slowdown": options.slowdown = try reader.slowdown()
        case "--data": options.dataDirectory = try reader.value(for: option)
        case "--screen":
          let value = try reader.value(for: option)
          guard let target = ScreenTarget(rawValue: value) else {
            throw UsageError("--screen must be stdout, stderr or none, not \"\(value)\"")
          }
          options.screen = target
        case "--color": options.color = true
        case "--history": options.historyDirectory = try reader.value(for: option)
        case "--workers": options.workers = try reader.workers()
        case "--slow":
          let slow = try reader.slow()
          options.slowed = [slow.service: slow.factor]
        default: throw reader.unknown(option)
        }
      }
      guard let mode else { throw UsageError("launch needs --mode eager or --mode deferred") }
      options.mode = mode
      return .launch(options)
    case "compare":
      var options = CompareOptions()
      while let option = try reader.next() {
        switch option {
        case "--runs":
          let value = try reader.value(for: option)
          guard let runs = Int(value), (1...1_000).contains(runs) else {
            throw UsageError("--runs must be a whole number from 1 to 1000, not \"\(value)\"")
          }
          options.runs = runs
        case "--json": options.json = true
        case "--slowdown": options.slowdown = try reader.slowdown()
        default: throw reader.unknown(option)
        }
      }
      return .compare(options)
    case "advise":
      var options = AdviseOptions()
      while let option = try reader.next() {
        switch option {
        case "--slowdown": options.slowdown = try reader.slowdown()
        default: throw reader.unknown(option)
        }
      }
      return .advise(options)
    case "history":
      var options = HistoryOptions()
      while let option = try reader.next() {
        switch option {
        case "--runs":
          let value = try reader.value(for: option)
          guard let runs = Int(value), (1...100).contains(runs) else {
            throw UsageError("--runs must be a whole number from 1 to 100, not \"\(value)\"")
          }
          options.runs = runs
        case "--workers": options.workers = try reader.workers()
        case "--history-dir": options.historyDirectory = try reader.value(for: option)
        case "--slow":
          let slow = try reader.slow()
          options.slowed = [slow.service: slow.factor]
        case "--slowdown": options.slowdown = try reader.slowdown()
        default: throw reader.unknown(option)
        }
      }
      return .history(options)
    case "field":
      var options = FieldOptions()
      while let option = try reader.next() {
        switch option {
        case "--payload": options.payloads.append(try reader.value(for: option))
        case "--json": options.json = true
        case "--slowdown": options.slowdown = try reader.slowdown()
        default: throw reader.unknown(option)
        }
      }
      return .field(options)
    default:
      throw UsageError("unknown command \"\(verb)\"")
    }
  }
}
