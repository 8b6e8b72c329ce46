extension Scenario {
  /// The first resolve of a chain of 200 distinct services in a fresh process, where the Swift
  /// runtime has cached no type or conformance lookup yet: what every resolve at launch is.
  static let coldFirstResolve = cold(length: 200, name: "coldFirstResolve")

  /// The same, over a chain of 1,000, for the containers that survive one.
  static let coldFirstResolve1000 = cold(
    length: 1000, name: "coldFirstResolve1000",
    unsupported: [
      Contender.swinject:
        "stops with fatalError past a resolution depth of 200 (Container.maxResolutionDepth)"
    ])

  /// Each figure comes from its own child process (see ``ColdChild``), which times the resolve
  /// with the monotonic clock and prints nanoseconds per service.
  private static func cold(length: Int, name: String, unsupported: [String: String] = [:])
    -> Scenario
  {
    Scenario(
      name: name,
      title: "first resolve of a chain of \(length) services in a fresh process (ns per service)",
      rows: {
        Contender.containers.map { contender in
          if let reason = unsupported[contender] { return .unsupported(contender, reason) }
          return Row(name: contender) { mode in
            var figures: [Double] = []
            for _ in 0..<mode.coldProcesses {
              let child = ChildProcess.run(
                [ChildCommand.coldFirstResolve, contender, String(length)])
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
}
