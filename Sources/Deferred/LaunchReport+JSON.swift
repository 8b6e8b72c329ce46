extension LaunchReport {
  /// The schema name and version written in every report (`"schema"`).
  public static let jsonSchema = "deferred.launch-report/1"

  /// The whole report as JSON, in the documented schema `deferred.launch-report/1`
  /// (`Docs/ReportSchema.md`); ``init(json:)`` reads it back.
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
    func uint(_ value: JSONValue?, _ field: String) throws(JSONError) -> UInt64 {
      guard let number = value?.int, number >= 0 else { throw fail("missing \(field)") }
      return UInt64(number)
    }
    func optionalUInt(_ value: JSONValue?) -> UInt64? {
      value?.int.flatMap { $0 >= 0 ? UInt64($0) : nil }
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
      milestones.append(Milestone(kind, at: try uint(item["offsetNs"], "offsetNs")))
    }
    var builds: [BuildRecord] = []
    for item in root["builds"]?.array ?? [] {
      guard let outcome = item["outcome"]?.string.flatMap(BuildRecord.Outcome.init) else {
        throw fail("bad outcome")
      }
      builds.append(
        BuildRecord(
          service: try text(item["service"], "service"),
          priority: try text(item["priority"], "priority"),
          trigger: try text(item["trigger"], "trigger"), requestedBy: item["requestedBy"]?.string,
          thread: try text(item["thread"], "thread"),
          isMainThread: item["mainThread"]?.bool ?? false, qos: item["qos"]?.string,
          queued: optionalUInt(item["queuedNs"]), start: try uint(item["startNs"], "startNs"),
          duration: try uint(item["durationNs"], "durationNs"),
          selfDuration: try uint(item["selfNs"], "selfNs"), cpu: optionalUInt(item["cpuNs"]),
          waited: optionalUInt(item["waitedNs"]) ?? 0,
          waiters: (item["waiters"]?.array ?? []).compactMap(\.string), outcome: outcome,
          error: item["error"]?.string, attempt: Int(item["attempt"]?.int ?? 1)))
    }
    var transients: [TransientRecord] = []
    for item in root["transients"]?.array ?? [] {
      transients.append(
        TransientRecord(
          service: try text(item["service"], "service"), count: Int(item["count"]?.int ?? 0),
          total: try uint(item["totalNs"], "totalNs"),
          median: try uint(item["medianNs"], "medianNs"),
          max: try uint(item["maxNs"], "maxNs")))
    }
    var hazards: [Hazard] = []
    for item in root["hazards"]?.array ?? [] {
      guard let kind = item["kind"]?.string.flatMap(Hazard.Kind.init) else {
        throw fail("bad hazard kind")
      }
      hazards.append(
        Hazard(
          kind: kind, service: try text(item["service"], "service"),
          detail: try text(item["detail"], "detail"), duration: optionalUInt(item["durationNs"])))
    }
    var dependencies: [String: [String]] = [:]
    for item in root["dependencies"]?.array ?? [] {
      dependencies[try text(item["service"], "service")] =
        (item["dependsOn"]?.array ?? []).compactMap(\.string)
    }
    self.init(
      processStart: source,
      processStartPrecision: try uint(root["processStart"]?["precisionNs"], "precisionNs"),
      milestones: milestones, builds: builds, transients: transients, hazards: hazards,
      dependencies: dependencies)
  }

  var jsonValue: JSONValue {
    func number(_ value: UInt64) -> JSONValue { .int(Int64(clamping: value)) }
    func optional(_ value: UInt64?) -> JSONValue { value.map(number) ?? .null }
    func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    return .object([
      ("schema", .string(Self.jsonSchema)),
      (
        "processStart",
        .object([
          ("source", .string(processStart.rawValue)),
          ("precisionNs", number(processStartPrecision)),
        ])
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
            .object([
              ("service", .string(build.service)),
              ("priority", .string(build.priority)),
              ("trigger", .string(build.trigger)),
              ("requestedBy", optional(build.requestedBy)),
              ("thread", .string(build.thread)),
              ("mainThread", .bool(build.isMainThread)),
              ("qos", optional(build.qos)),
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
            ])
          })
      ),
      (
        "transients",
        .array(
          transients.map {
            .object([
              ("service", .string($0.service)), ("count", .int(Int64($0.count))),
              ("totalNs", number($0.total)), ("medianNs", number($0.median)),
              ("maxNs", number($0.max)),
            ])
          })
      ),
      (
        "hazards",
        .array(
          hazards.map {
            .object([
              ("kind", .string($0.kind.rawValue)), ("service", .string($0.service)),
              ("detail", .string($0.detail)), ("durationNs", optional($0.duration)),
            ])
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
    ])
  }
}
