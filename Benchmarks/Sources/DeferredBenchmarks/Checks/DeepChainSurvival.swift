/// Whether each container resolves the last of a 10,000-link chain on a thread with a 512 KiB
/// stack. A container that recurses once per link overflows the stack and crashes, so each
/// contender runs in its own child process (see ``DeepChainChild``).
enum DeepChainSurvival {
  struct Outcome {
    let contender: String
    let survived: Bool
    /// How the child ended, in words.
    let detail: String
  }

  static func check() -> [Outcome] {
    Contender.containers.map { contender in
      logProgress("  \(contender)")
      let child = ChildProcess.run([ChildCommand.surviveDeepChain, contender], quiet: true)
      let survived = child.termination == .exited(0) && child.output.contains("survived")
      return Outcome(
        contender: contender, survived: survived,
        detail: survived ? "resolved all \(DeepChain.length) links" : child.termination.description)
    }
  }
}
