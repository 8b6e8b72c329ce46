import Deferred

extension LaunchReport {
  /// The dependency graph in Graphviz DOT, each service labelled with its priority and the time
  /// its build took, and the critical path in red: the chain of dependencies whose builds took
  /// longest in all. Every service built or failed is a node, with edges or without; a service
  /// whose latest build failed is outlined in dashes and labelled `failed`.
  ///
  /// ```sh
  /// dot -Tsvg graph.dot -o graph.svg
  /// ```
  ///
  /// - Returns: The DOT text.
  public func dot() -> String {
    guard hasFiguresInRange else { return figuresInRange.dot() }
    var cost: [String: Duration] = [:]
    var priority: [String: Priority] = [:]
    var failed: Set<String> = []
    for build in builds where build.outcome != .cancelled {
      priority[build.service] = build.priority
      if build.outcome == .built {
        cost[build.service, default: .zero] += build.selfDuration
        failed.remove(build.service)
      } else {
        failed.insert(build.service)
      }
    }
    let services = Set(dependencies.keys).union(dependencies.values.joined())
      .union(priority.keys).sorted()
    let path = heaviestChain(services: services, dependencies: dependencies, cost: cost).path
    let onCritical = Set(path)
    let criticalEdges = Set(zip(path, path.dropFirst()).map { "\($0)->\($1)" })
    var lines = [
      "digraph launch {", "  rankdir=LR;",
      "  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=Helvetica];",
    ]
    func quoted(_ text: String) -> String {
      let escaped = text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
      return "\"" + escaped.replacingAll("\n", with: "\\n") + "\""
    }
    for service in services {
      var label = service
      if let priority = priority[service] { label += "\n\(priority)" }
      if let time = cost[service] { label += "\n\(milliseconds(time))" }
      if failed.contains(service) { label += "\nfailed" }
      var style =
        onCritical.contains(service) ? ", color=red, penwidth=2, fillcolor=\"#fde8e8\"" : ""
      if failed.contains(service) { style += ", style=\"rounded,filled,dashed\"" }
      lines.append("  \(quoted(service)) [label=\(quoted(label))\(style)];")
    }
    for service in services {
      for need in dependencies[service] ?? [] {
        let style = criticalEdges.contains("\(service)->\(need)") ? " [color=red, penwidth=2]" : ""
        lines.append("  \(quoted(service)) -> \(quoted(need))\(style);")
      }
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }
}

extension String {
  /// The string with every `target` replaced (the standard library alone has no such method).
  func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = self[...]
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound] + replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}
