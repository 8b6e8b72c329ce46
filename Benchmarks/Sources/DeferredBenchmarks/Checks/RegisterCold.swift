/// Registration in a fresh process, the first time the types are seen: for each registration
/// form and container, the wall time per registration (median over the mode's cold processes)
/// and, where valgrind is installed and the mode is full, the instructions per registration
/// (callgrind, counting inside the child's measured function only, as the gate does).
enum RegisterCold {
  /// The chain registered: as long as the cold resolve scenario's.
  static let length = 200

  struct Outcome {
    let form: String
    let nanosecondsPerRegistration: Double?
    let instructionsPerRegistration: Double?
  }

  static func check(_ mode: Mode) -> [Outcome] {
    let valgrind = mode.name == "full" ? ChildProcess.find("valgrind") : nil
    if valgrind == nil { logProgress("  no instruction counts (quick mode, or no valgrind)") }
    return RegisterColdChild.forms.map { form in
      logProgress("  \(form)")
      var figures: [Double] = []
      for _ in 0..<mode.coldProcesses {
        let child = ChildProcess.run([ChildCommand.registerCold, form, String(length)])
        let text = child.output.split(whereSeparator: \.isWhitespace).last.map(String.init)
        guard child.termination == .exited(0), let figure = text.flatMap(Double.init) else {
          logProgress("  \(form): the child process \(child.termination.description)")
          break
        }
        figures.append(figure)
      }
      let median = figures.isEmpty ? nil : Summary(figures).median
      let instructions = valgrind.flatMap { valgrind -> Double? in
        collectedInstructions(form, length, valgrind).map { Double($0) / Double(length) }
      }
      return Outcome(
        form: form, nanosecondsPerRegistration: median, instructionsPerRegistration: instructions)
    }
  }

  /// The instructions of a whole `_register-cold` child under callgrind.
  private static func collectedInstructions(_ form: String, _ length: Int, _ valgrind: String)
    -> Int?
  {
    guard let symbol = RegisterColdChild.symbol(of: form) else { return nil }
    let child = ChildProcess.run(
      [ChildCommand.registerCold, form, String(length)], quiet: true,
      under: [
        valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", "--log-fd=1",
        "--collect-atstart=no", "--toggle-collect=\(symbol)",
      ],
      environment: ["SWIFT_DETERMINISTIC_HASHING=1"])
    guard child.termination == .exited(0) else { return nil }
    for line in child.output.split(separator: "\n") where line.contains("Collected :") {
      return line.split(separator: " ").last.flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }
    return nil
  }
}
