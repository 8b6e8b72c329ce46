import Deferred
import DeferredHistory
import DeferredReports

extension DemoCommand {
  /// `history`: launches of the deferred app in fresh processes, sharing a launch history on
  /// disk, and what each one's background work took beside its ideal bound.
  static func history(_ options: HistoryOptions) throws {
    let workload = Workload(scale: options.slowdown)
    let directory = try Files.makeTemporaryDirectory(prefix: "deferred-demo-history")
    defer { Files.remove(directory) }
    let files = try AppFiles.install(in: directory, workload: workload)
    // The history lives beside the app's files, and goes with them, unless it is to be kept.
    let historyDirectory = options.historyDirectory ?? "\(directory)/history"
    try Files.makeDirectory(historyDirectory)
    let executable = ChildProcess.currentExecutable
    let showProgress = Terminal.isTerminal(2)
    let run = try HistoryRun.measure(
      runs: options.runs, workers: options.workers, slowed: options.slowed,
      remembered: { LaunchHistory(directory: historyDirectory).launchCount },
      launch: { index, slowed throws(DemoError) in
        if showProgress {
          Terminal.write("\r\u{1B}[Khistory: launch \(index + 1) of \(options.runs)", to: 2)
        }
        let result = try ChildProcess.run(
          [
            executable, "launch", "--mode", "deferred", "--json", "--data", files.directory,
            "--history", historyDirectory, "--workers", String(options.workers),
          ]
            + (options.slowdown == 1 ? [] : ["--slowdown", String(options.slowdown)])
            + slowed.sorted { $0.key < $1.key }.flatMap { ["--slow", "\($0.key)=\($0.value)"] })
        guard result.status == 0 else {
          throw DemoError("launch \(index + 1) failed with exit status \(result.status)")
        }
        do {
          return try LaunchReport(json: result.output)
        } catch {
          throw DemoError("launch \(index + 1)'s report is not readable: \(error)")
        }
      })
    if showProgress { Terminal.write("\r\u{1B}[K", to: 2) }
    var text = run.text()
    if let kept = options.historyDirectory {
      text += "\nThe history is in \(kept): run again with --history-dir to go on from it.\n"
    }
    Terminal.write(text)
  }
}
