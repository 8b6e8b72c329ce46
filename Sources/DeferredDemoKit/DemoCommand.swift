import Deferred

/// The demo's commands: what `DeferredDemo` runs.
public enum DemoCommand {
  /// Runs the command line and returns the exit status: 0 on success, 1 when the demo fails,
  /// 2 for a command line it does not understand (with the usage on standard error).
  ///
  /// - Parameters:
  ///   - arguments: The arguments, without the program's name.
  ///   - isolation: The caller's actor: the main actor, so that launches run on the main
  ///     thread.
  /// - Returns: The exit status.
  public static func run(
    _ arguments: [String], isolation: isolated (any Actor)? = #isolation
  ) async -> Int32 {
    let command: Command
    do {
      command = try Command.parse(arguments)
    } catch {
      Terminal.write("\(error)\n", to: 2)
      return 2
    }
    do {
      switch command {
      case .help: Terminal.write(Command.usage + "\n")
      case .launch(let options): try await launch(options)
      case .compare(let options): try compare(options)
      case .advise(let options): try await advise(options)
      case .history(let options): try history(options)
      case .field(let options): try await field(options)
      case .tour: try tour()
      }
      return 0
    } catch {
      Terminal.write("DeferredDemo: \(error)\n", to: 2)
      return 1
    }
  }

  /// The two lines that matter: time to the first frame and to full readiness.
  static func summary(of report: LaunchReport) -> String {
    let first = report.offset(of: .firstFrame).map { Format.milliseconds($0, places: 1) } ?? "-"
    let ready = report.offset(of: .fullyReady).map { Format.milliseconds($0, places: 1) } ?? "-"
    return "  time to first frame  \(Format.right(first, 10))   (from process start)\n"
      + "  time to fully ready  \(Format.right(ready, 10))   (every service built)\n"
  }
}
