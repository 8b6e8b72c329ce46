extension DemoCommand {
  /// `compare`: fresh processes of both modes, interleaved, and their statistics.
  static func compare(_ options: CompareOptions) throws {
    let workload = Workload(scale: options.slowdown)
    let directory = try Files.makeTemporaryDirectory(prefix: "deferred-demo-compare")
    defer { Files.remove(directory) }
    let files = try AppFiles.install(in: directory, workload: workload)
    let executable = ChildProcess.currentExecutable
    let showProgress = Terminal.isTerminal(2)
    let comparison = try Comparison.measure(
      runs: options.runs, slowdown: options.slowdown, workers: DemoCommand.cores,
      child: { mode, _ throws(DemoError) in
        let result = try ChildProcess.run(
          [executable, "launch", "--mode", mode.rawValue, "--json", "--data", files.directory]
            + (options.slowdown == 1 ? [] : ["--slowdown", String(options.slowdown)]))
        guard result.status == 0 else {
          throw DemoError("a \(mode) launch failed with exit status \(result.status)")
        }
        return result.output
      },
      progress: { done, total, mode in
        if showProgress {
          Terminal.write("\r\u{1B}[Kcompare: launch \(done) of \(total) (\(mode))", to: 2)
        }
      })
    if showProgress { Terminal.write("\r\u{1B}[K", to: 2) }
    Terminal.write(options.json ? comparison.json() : comparison.table())
  }
}
