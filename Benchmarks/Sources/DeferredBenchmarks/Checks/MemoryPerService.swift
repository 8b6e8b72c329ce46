/// Bytes a container keeps per registered service and per built singleton, at 10,000 services:
/// each contender in a fresh child process (see ``MemoryChild``).
enum MemoryPerService {
  static let services = 10_000

  struct Outcome {
    let contender: String
    let bytesPerRegistration: Double
    let bytesPerBuiltSingleton: Double
  }

  /// `nil` where the child cannot count bytes (malloc-interposer not in charge).
  static func check() -> [Outcome]? {
    var outcomes: [Outcome] = []
    for contender in MemoryChild.contenders {
      logProgress("  \(contender)")
      let child = ChildProcess.run([ChildCommand.memory, contender, String(services)])
      var figures: [String: Double] = [:]
      for line in child.output.split(separator: "\n") {
        let words = line.split(separator: " ")
        if words.count == 2, let value = Double(words[1]) { figures[String(words[0])] = value }
      }
      guard child.termination == .exited(0), let registered = figures["registered"],
        let built = figures["built"]
      else {
        logProgress("  \(contender): the child process \(child.termination.description)")
        return nil
      }
      outcomes.append(
        Outcome(
          contender: contender, bytesPerRegistration: registered / Double(services),
          bytesPerBuiltSingleton: built / Double(services)))
    }
    return outcomes
  }
}
