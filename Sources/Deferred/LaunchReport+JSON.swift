extension LaunchReport {
  /// The schema name and version written in every report (`"schema"`).
  public static let jsonSchema = "deferred.launch-report/1"

  /// The whole report as JSON, in the documented schema `deferred.launch-report/1`
  /// (`Docs/ReportSchema.md`); ``init(json:)`` reads it back. It is the shape the report's
  /// `Codable` conformance reads and writes too.
  ///
  /// - Parameter pretty: Indent the output, two spaces a level.
  /// - Returns: The JSON text.
  public func json(pretty: Bool = false) -> String {
    jsonValue.rendered(pretty: pretty)
  }

  /// Reads a report written by ``json(pretty:)``.
  ///
  /// - Parameter json: The JSON text.
  /// - Throws: ``JSONError`` if it is not JSON, or not a report of this schema.
  public init(json: String) throws(JSONError) {
    let root = try JSONValue(parsing: json)
    func fail(_ message: String) -> JSONError { JSONError(message: message, offset: 0) }
    guard root["schema"]?.string == Self.jsonSchema else {
      throw fail("not a \(Self.jsonSchema) document")
    }
    func nanoseconds(_ value: JSONValue?, _ field: String) throws(JSONError) -> Duration {
      guard let number = value?.int, number >= 0 else { throw fail("missing \(field)") }
      return .nanoseconds(number)
    }
    func optionalNanoseconds(_ value: JSONValue?) -> Duration? {
      value?.int.flatMap { $0 >= 0 ? .nanoseconds($0) : nil }
    }
    func text(_ value: JSONValue?, _ field: String) throws(JSONError) -> String {
      guard let string = value?.string else { throw fail("missing \(field)") }
      return string
    }
    guard let source = root["processStart"]?["source"]?.string.flatMap(ProcessStart.Source.init)
    else { throw fail("missing processStart.source") }
    var milestones: [Milestone] = []
    for item in root["milestones"]?.array ?? [] {
      guard let kind = item["name"]?.string.flatMap(Milestone.Kind.init) else {
        throw fail("bad milestone")
      }
      milestones.append(Milestone(kind, at: try nanoseconds(item["offsetNs"], "offsetNs")))
    }
    var builds: [BuildRecord] = []
    for item in root["builds"]?.array ?? [] {
      guard let outcome = item["outcome"]?.string.flatMap(BuildRecord.Outcome.init) else {
        throw fail("bad outcome")
      }
      guard let trigger = item["trigger"]?.string.flatMap(BuildTrigger.init) else {
        throw fail("bad trigger")
      }
      let priorityName = try text(item["priority"], "priority")
      guard
        let priority = Priority(
          reportName: priorityName, idleDelay: optionalNanoseconds(item["idleDelayNs"]))
      else { throw fail("bad priority \(priorityName)") }
      var qos: BuildQoS?
      if let name = item["qos"]?.string {
        guard let value = BuildQoS(rawValue: name) else { throw fail("bad qos \(name)") }
        qos = value
      }
      builds.append(
        BuildRecord(
          service: try text(item["service"], "service"), priority: priority, trigger: trigger,
          requestedBy: item["requestedBy"]?.string, thread: try text(item["thread"], "thread"),
          isMainThread: item["mainThread"]?.bool ?? false, qos: qos,
          queued: optionalNanoseconds(item["queuedNs"]),
          start: try nanoseconds(item["startNs"], "startNs"),
          duration: try nanoseconds(item["durationNs"], "durationNs"),
          selfDuration: try nanoseconds(item["selfNs"], "selfNs"),
          cpu: optionalNanoseconds(item["cpuNs"]),
          waited: optionalNanoseconds(item["waitedNs"]) ?? .zero,
          waiters: (item["waiters"]?.array ?? []).compactMap(\.string), outcome: outcome,
          error: item["error"]?.string, attempt: Int(item["attempt"]?.int ?? 1),
          generation: Int(item["generation"]?.int ?? 0)))
    }
    var transients: [TransientRecord] = []
    for item in root["transients"]?.array ?? [] {
      transients.append(
        TransientRecord(
          service: try text(item["service"], "service"), count: Int(item["count"]?.int ?? 0),
          timed: item["timedCount"]?.int.map { Int($0) },
          total: try nanoseconds(item["totalNs"], "totalNs"),
          median: try nanoseconds(item["medianNs"], "medianNs"),
          max: try nanoseconds(item["maxNs"], "maxNs")))
    }
    var hazards: [Hazard] = []
    for item in root["hazards"]?.array ?? [] {
      guard let kind = item["kind"]?.string.flatMap(Hazard.Kind.init) else {
        throw fail("bad hazard kind")
      }
      hazards.append(
        Hazard(
          kind: kind, service: try text(item["service"], "service"),
          detail: try text(item["detail"], "detail"),
          duration: optionalNanoseconds(item["durationNs"]),
          baseline: optionalNanoseconds(item["baselineNs"])))
    }
    var dependencies: [String: [String]] = [:]
    for item in root["dependencies"]?.array ?? [] {
      dependencies[try text(item["service"], "service")] =
        (item["dependsOn"]?.array ?? []).compactMap(\.string)
    }
    func priority(_ value: JSONValue?, delay: JSONValue?) throws(JSONError) -> Priority? {
      guard let name = value?.string else { return nil }
      guard let priority = Priority(reportName: name, idleDelay: optionalNanoseconds(delay))
      else { throw fail("bad priority \(name)") }
      return priority
    }
    var advice: [Advice] = []
    for item in root["advice"]?.array ?? [] {
      guard let kind = item["kind"]?.string.flatMap(Advice.Kind.init) else {
        throw fail("bad advice kind")
      }
      guard let effect = item["effect"]?.string.flatMap(Advice.Effect.init) else {
        throw fail("bad advice effect")
      }
      advice.append(
        Advice(
          kind: kind, service: try text(item["service"], "service"),
          priority: try priority(item["priority"], delay: item["idleDelayNs"]),
          suggestion: try priority(item["suggestion"], delay: item["suggestionIdleDelayNs"]),
          saving: try nanoseconds(item["savingNs"], "savingNs"), effect: effect,
          cost: optionalNanoseconds(item["costNs"]),
          chain: (item["chain"]?.array ?? []).compactMap(\.string),
          detail: try text(item["detail"], "detail")))
    }
    self.init(
      processStart: source,
      processStartPrecision: try nanoseconds(root["processStart"]?["precisionNs"], "precisionNs"),
      processStartKind: root["processStart"]?["kind"]?.string.flatMap(ProcessStart.Kind.init)
        ?? .launch,
      milestones: milestones, builds: builds, transients: transients, hazards: hazards,
      dependencies: dependencies,
      firstFrameUses: (root["firstFrameUses"]?.array ?? []).compactMap(\.string),
      unusedServices: (root["unusedServices"]?.array ?? []).compactMap(\.string),
      advice: advice)
  }

  var jsonValue: JSONValue {
    func number(_ value: Duration) -> JSONValue { .int(value.jsonNanoseconds) }
    func optional(_ value: Duration?) -> JSONValue { value.map(number) ?? .null }
    func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    return .object([
      ("schema", .string(Self.jsonSchema)),
      (
        "processStart",
        .object(
          [
            ("source", .string(processStart.rawValue)),
            ("precisionNs", number(processStartPrecision)),
          ]
            // Written only where it says something: a launch's document is as before.
            + (processStartKind == .launch ? [] : [("kind", .string(processStartKind.rawValue))])
        )
      ),
      (
        "milestones",
        .array(
          milestones.map {
            .object([("name", .string($0.kind.rawValue)), ("offsetNs", number($0.offset))])
          })
      ),
      (
        "builds",
        .array(
          builds.map { build in
            var members: [(String, JSONValue)] = [
              ("service", .string(build.service)),
              ("priority", .string(build.priority.description)),
              ("trigger", .string(build.trigger.rawValue)),
              ("requestedBy", optional(build.requestedBy)),
              ("thread", .string(build.thread)),
              ("mainThread", .bool(build.isMainThread)),
              ("qos", optional(build.qos?.rawValue)),
              ("queuedNs", optional(build.queued)),
              ("startNs", number(build.start)),
              ("durationNs", number(build.duration)),
              ("selfNs", number(build.selfDuration)),
              ("cpuNs", optional(build.cpu)),
              ("waitedNs", number(build.waited)),
              ("waiters", .array(build.waiters.map(JSONValue.string))),
              ("outcome", .string(build.outcome.rawValue)),
              ("error", optional(build.error)),
              ("attempt", .int(Int64(build.attempt))),
            ]
            // Only for a later generation: reports of apps without scopes stay as they were.
            if build.generation > 0 {
              members.append(("generation", .int(Int64(build.generation))))
            }
            // The priority's name rounds an idle delay: the exact delay follows it.
            if let delay = build.priority.idleDelay {
              members.insert(("idleDelayNs", number(delay)), at: 2)
            }
            return .object(members)
          })
      ),
      (
        "transients",
        .array(
          transients.map {
            var members: [(String, JSONValue)] = [
              ("service", .string($0.service)), ("count", .int(Int64($0.count))),
              ("totalNs", number($0.total)), ("medianNs", number($0.median)),
              ("maxNs", number($0.max)),
            ]
            // Only where some builds were not timed: older reports read as before.
            if $0.timed != $0.count { members.insert(("timedCount", .int(Int64($0.timed))), at: 2) }
            return .object(members)
          })
      ),
      (
        "hazards",
        .array(
          hazards.map { hazard in
            var members: [(String, JSONValue)] = [
              ("kind", .string(hazard.kind.rawValue)), ("service", .string(hazard.service)),
              ("detail", .string(hazard.detail)), ("durationNs", optional(hazard.duration)),
            ]
            // Only a regression has one: older documents, and other hazards, have none.
            if let baseline = hazard.baseline { members.append(("baselineNs", number(baseline))) }
            return .object(members)
          })
      ),
      (
        "dependencies",
        .array(
          dependencies.keys.sorted().map { service in
            .object([
              ("service", .string(service)),
              ("dependsOn", .array((dependencies[service] ?? []).map(JSONValue.string))),
            ])
          })
      ),
      ("firstFrameUses", .array(firstFrameUses.map(JSONValue.string))),
      ("unusedServices", .array(unusedServices.map(JSONValue.string))),
      (
        "advice",
        .array(
          advice.map { item in
            var members: [(String, JSONValue)] = [
              ("kind", .string(item.kind.rawValue)), ("service", .string(item.service)),
              ("priority", optional(item.priority?.description)),
            ]
            if let delay = item.priority?.idleDelay {
              members.append(("idleDelayNs", number(delay)))
            }
            members.append(("suggestion", optional(item.suggestion?.description)))
            if let delay = item.suggestion?.idleDelay {
              members.append(("suggestionIdleDelayNs", number(delay)))
            }
            members += [
              ("savingNs", number(item.saving)), ("effect", .string(item.effect.rawValue)),
              ("costNs", optional(item.cost)), ("chain", .array(item.chain.map(JSONValue.string))),
              ("detail", .string(item.detail)),
            ]
            return .object(members)
          })
      ),
    ])
  }
}
