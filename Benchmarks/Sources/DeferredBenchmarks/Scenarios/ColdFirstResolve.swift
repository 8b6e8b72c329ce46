extension Scenario {
  /// The first resolve of a chain of 200 distinct services in a fresh process, where the Swift
  /// runtime has cached no type or conformance lookup yet: what every resolve at launch is.
  ///
  /// Each figure comes from its own child process (see ``ColdChild``), which times the resolve
  /// with the monotonic clock and prints nanoseconds per service.
  static let coldFirstResolve = Scenario(
    name: "coldFirstResolve",
    title:
      "first resolve of a chain of \(ColdChild.length) services in a fresh process (ns per service)",
    rows: {
      Contender.containers.map { contender in
        Row(name: contender) { mode in
          var figures: [Double] = []
          for _ in 0..<mode.coldProcesses {
            let child = ChildProcess.run([ChildCommand.coldFirstResolve, contender])
            let text = child.output.split(whereSeparator: \.isWhitespace).last.map(String.init)
            guard child.termination == .exited(0), let figure = text.flatMap(Double.init) else {
              return .failed("the child process \(child.termination.description)")
            }
            figures.append(figure)
          }
          return .measured(figures)
        }
      }
    })
}
