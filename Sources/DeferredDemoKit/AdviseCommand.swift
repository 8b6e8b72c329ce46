import Deferred
import DeferredReports

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension DemoCommand {
  /// The active processors: a container's deferred builds at once by default.
  static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  /// `advise`: an eager launch and a deferred one, each in a fresh process; the advice from the
  /// eager one, its prediction of the deferred one, and the deferred one measured.
  static func advise(_ options: AdviseOptions) async throws {
    let workload = Workload(scale: options.slowdown)
    let directory = try Files.makeTemporaryDirectory(prefix: "deferred-demo-advise")
    defer { Files.remove(directory) }
    let files = try AppFiles.install(in: directory, workload: workload)
    let executable = ChildProcess.currentExecutable
    // The deferred app runs one deferred build a core.
    let workers = cores
    let run = try await AdviceRun.measure(workers: workers) { mode in
      let result = try ChildProcess.run(
        [executable, "launch", "--mode", mode.rawValue, "--json", "--data", files.directory]
          + (options.slowdown == 1 ? [] : ["--slowdown", String(options.slowdown)]))
      guard result.status == 0 else {
        throw DemoError("the \(mode) launch failed with exit status \(result.status)")
      }
      do {
        return try LaunchReport(json: result.output)
      } catch {
        throw DemoError("the \(mode) launch's report is not readable: \(error)")
      }
    }
    Terminal.write(run.text())
  }
}
