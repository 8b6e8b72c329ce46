import Deferred
import DeferredHistory
import DeferredReports

extension DemoCommand {
  /// `launch`: one launch in this process.
  static func launch(_ options: LaunchOptions, isolation: isolated (any Actor)? = #isolation)
    async throws
  {
    var workload = Workload(scale: options.slowdown)
    workload.slowed = options.slowed
    let files: AppFiles
    var installed: (directory: String, took: UInt64)?
    if let directory = options.dataDirectory {
      files = AppFiles(directory: directory)
      guard files.isInstalled else { throw DemoError("no app files installed in \(directory)") }
    } else {
      // No installer ran: install the app's files here, before the launch.
      let began = MonotonicClock().now()
      let directory = try Files.makeTemporaryDirectory(prefix: "deferred-demo-app")
      files = try AppFiles.install(in: directory, workload: workload)
      installed = (directory, MonotonicClock().now() - began)
    }
    defer { installed.map { Files.remove($0.directory) } }
    let screen = Screen(
      options.screen ?? (options.json ? .none : .stdout), color: options.color ? true : nil)
    var session = LaunchSession(
      mode: options.mode, files: files, workload: workload, screen: screen)
    session.maxConcurrentBuilds = options.workers
    if let directory = options.historyDirectory {
      // The container records the launch in a background job once fully ready: the process
      // waits for it before it reports and exits.
      let scheduler = TrackingScheduler()
      session.scheduler = scheduler
      session.history = LaunchHistory(directory: directory)
      session.settle = { await scheduler.settled() }
    }
    let outcome = try await session.run()
    var notes = outcome.notes
    if let installed {
      notes.append(
        "the app's files were installed first, in \(Format.milliseconds(.nanoseconds(Int64(clamping: installed.took)), places: 2)):"
          + " that is before `launch began` (compare and the tour install them once, beforehand)")
    }
    screen.write(notes.map { " · \($0)\n" }.joined())
    let report = outcome.report
    if options.json {
      Terminal.write(report.json() + "\n")
    } else {
      Terminal.write("\n\(options.mode) launch\n\n" + report.text() + "\n" + summary(of: report))
    }
    if let path = options.tracePath { try Files.write(report.chromeTrace(), to: path) }
    if let path = options.svgPath { try Files.write(report.svg(), to: path) }
  }
}
