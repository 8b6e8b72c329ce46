import Deferred
import DeferredReports

extension DemoCommand {
  /// No arguments: each mode launched once in a fresh process, shown in full.
  static func tour() throws {
    let directory = try Files.makeTemporaryDirectory(prefix: "deferred-demo")
    let appDirectory = "\(directory)/app"
    try Files.makeDirectory(appDirectory)
    defer { Files.remove(appDirectory) }
    let files = try AppFiles.install(in: appDirectory, workload: .standard)
    let executable = ChildProcess.currentExecutable
    let colored = Terminal.isTerminal(1)
    Terminal.write(
      """
      Deferred demo: one calculator app, launched twice, each time in a fresh process.
      Its services do real work: the theme engine rasterises the keypad's buttons, storage reads
      and writes files, conversions parse a units table, location filters sensor samples, sync
      hashes the journal. Only the remote's latency is simulated (Task.sleep).
        eager     \(LaunchMode.eager.summary)
        deferred  \(LaunchMode.deferred.summary)
      The user types two calculations the moment the keypad is on screen.

      """)
    var reports: [LaunchMode: LaunchReport] = [:]
    var written: [String] = []
    for mode in LaunchMode.allCases {
      Terminal.write("\n━━ \(mode) launch ━━ \(mode.summary)\n\n")
      let result = try ChildProcess.run(
        [
          executable, "launch", "--mode", mode.rawValue, "--json", "--data", files.directory,
          "--screen", "stderr",
        ] + (colored ? ["--color"] : []),
        collectErrors: true)
      Terminal.write(result.errors)
      guard result.status == 0 else {
        throw DemoError("the \(mode) launch failed with exit status \(result.status)")
      }
      let report: LaunchReport
      do {
        report = try LaunchReport(json: result.output)
      } catch {
        throw DemoError("the \(mode) launch's report is not readable: \(error)")
      }
      reports[mode] = report
      Terminal.write("\n" + report.text() + "\n" + summary(of: report))
      let trace = "\(directory)/\(mode).trace.json"
      let svg = "\(directory)/\(mode).svg"
      try Files.write(report.chromeTrace(), to: trace)
      try Files.write(report.svg(), to: svg)
      written += [trace, svg]
    }
    Terminal.write("\n━━ eager against deferred ━━ times from each process's spawn\n\n")
    for (title, kind) in [("first frame", Milestone.Kind.firstFrame), ("fully ready", .fullyReady)]
    {
      let eager = reports[.eager]?.offset(of: kind) ?? .zero
      let deferred = reports[.deferred]?.offset(of: kind) ?? .zero
      Terminal.write(
        "  \(title)   eager \(Format.right(Format.milliseconds(eager, places: 1), 9))"
          + "   deferred \(Format.right(Format.milliseconds(deferred, places: 1), 9))"
          + "   (\(Comparison.sooner(deferred / .nanoseconds(1), than: eager / .nanoseconds(1))))\n"
      )
    }
    #if DEBUG
      Terminal.write(
        """

        This is a debug build: its services' work runs several times slower than in a release
        build, while the simulated latency does not. For representative times:
          swift build -c release && .build/release/DeferredDemo compare --runs 10

        """)
    #endif
    Terminal.write(
      """

      One launch each, so expect noise; `DeferredDemo compare` runs many and prints medians.
      Wrote the launches' Chrome traces (open in ui.perfetto.dev or chrome://tracing) and SVG
      timelines (open in a browser):

      """ + written.map { "  \($0)\n" }.joined())
  }
}
