/// A launch as data: its milestones, what every initializer cost, and the hazards worth fixing.
///
/// Get one from ``Container/launchReport(criticalShareLimit:)`` and write it as JSON
/// (``json(pretty:)``). The `DeferredReports` library renders it as a table (`text()`), a
/// Chrome/Perfetto trace (`chromeTrace()`), an SVG timeline (`svg(width:)`) or a dependency
/// graph (`dot()`), and holds it to a budget (`check(_:)`): it is for development, tests and
/// CI, and an app's release build need not link it.
///
/// ```swift
/// import DeferredReports
///
/// try container.firstFrameDrawn()
/// try await container.fullyReady()
/// let report = container.launchReport()
/// print(report.text())
/// #expect(report.check(LaunchBudget(firstFrame: .milliseconds(400))).isEmpty)
/// ```
///
/// Times are `Duration`s; offsets (a milestone's, a build's start) count from the process
/// start. The report is `Codable`, in the shape ``json(pretty:)`` writes.
public struct LaunchReport: Sendable, Hashable {
  /// Where the process start came from, and how precise it is.
  public var processStart: ProcessStart.Source
  /// The precision of the process start.
  public var processStartPrecision: Duration
  /// What the process start marks: the process's start, or, in a process the system prewarmed,
  /// the first use of Deferred (offsets then leave out the time before it).
  public var processStartKind: ProcessStart.Kind
  /// The steps of the launch that have happened, in order.
  public var milestones: [Milestone]
  /// Every build of a singleton, in the order they started.
  public var builds: [BuildRecord]
  /// Transient services, their builds together.
  public var transients: [TransientRecord]
  /// What is worth fixing.
  public var hazards: [Hazard]
  /// Each service and the services it depends on (declared, or observed in its builds).
  public var dependencies: [String: [String]]
  /// The services the app itself was handed (resolved, awaited, or given to a `whenReady`
  /// callback) by the time of the first frame, sorted: what the first frame needed, with
  /// what they need. Services a factory was handed are not in it.
  public var firstFrameUses: [String]
  /// The services built whose latest build nothing used, the app or a factory, by the time of
  /// the report, sorted.
  public var unusedServices: [String]
  /// The changes worth making, with their estimated savings: ``advise()``, as the report was
  /// made.
  public var advice: [Advice]
  /// How many builds and waits the container recorded and did not keep: it keeps its first
  /// 4,096 (a launch's) and its latest 1,024 of each, so that a long-running app does not grow.
  public var droppedRecords: Int

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - processStart: Where the process start came from.
  ///   - processStartPrecision: How precise it is.
  ///   - processStartKind: What the process start marks; ``ProcessStart/Kind-swift.enum/launch``
  ///     unless the process was prewarmed.
  ///   - milestones: The steps of the launch.
  ///   - builds: Every singleton build.
  ///   - transients: Transient services.
  ///   - hazards: What is worth fixing.
  ///   - dependencies: The dependency graph.
  ///   - firstFrameUses: The services the app was handed before the first frame.
  ///   - unusedServices: The services built that nothing used.
  ///   - advice: The changes worth making.
  ///   - droppedRecords: How many builds and waits were recorded and not kept.
  public init(
    processStart: ProcessStart.Source, processStartPrecision: Duration,
    processStartKind: ProcessStart.Kind = .launch, milestones: [Milestone], builds: [BuildRecord],
    transients: [TransientRecord] = [], hazards: [Hazard] = [],
    dependencies: [String: [String]] = [:], firstFrameUses: [String] = [],
    unusedServices: [String] = [], advice: [Advice] = [], droppedRecords: Int = 0
  ) {
    self.processStart = processStart
    self.processStartPrecision = processStartPrecision
    self.processStartKind = processStartKind
    self.milestones = milestones
    self.builds = builds
    self.transients = transients
    self.hazards = hazards
    self.dependencies = dependencies
    self.firstFrameUses = firstFrameUses
    self.unusedServices = unusedServices
    self.advice = advice
    self.droppedRecords = max(0, droppedRecords)
  }

  /// When `kind` happened, from the process start, if it has.
  public func offset(of kind: Milestone.Kind) -> Duration? {
    milestones.first { $0.kind == kind }?.offset
  }

  /// How long the critical phase took: from ``Milestone/Kind/launchBegan`` to
  /// ``Milestone/Kind/criticalReady``.
  public var criticalPhase: Duration? {
    guard let begin = offset(of: .launchBegan), let end = offset(of: .criticalReady) else {
      return nil
    }
    return end - begin
  }
}

extension LaunchReport: Codable {
  private enum CodingKeys: String, CodingKey {
    case schema, processStart, milestones, builds, transients, hazards, dependencies,
      firstFrameUses, unusedServices, advice, droppedRecords
  }

  private enum ProcessStartKeys: String, CodingKey {
    case source, precisionNs, kind
  }

  /// One service and what it depends on, as the schema lists them.
  private struct Dependency: Codable {
    var service: String
    var dependsOn: [String]?
  }

  /// Reads a report in the shape of its JSON schema, ``jsonSchema``: what ``json(pretty:)``
  /// writes.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a document of another schema, a missing field or a value of
  ///   the wrong kind.
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    let schema = try values.decode(String.self, forKey: .schema)
    guard schema == Self.jsonSchema else {
      throw DecodingError.dataCorruptedError(
        forKey: .schema, in: values, debugDescription: "not a \(Self.jsonSchema) document")
    }
    let start = try values.nestedContainer(keyedBy: ProcessStartKeys.self, forKey: .processStart)
    let dependencies = try values.decodeIfPresent([Dependency].self, forKey: .dependencies) ?? []
    self.init(
      processStart: try start.decode(ProcessStart.Source.self, forKey: .source),
      processStartPrecision: try start.decodeNanoseconds(forKey: .precisionNs),
      processStartKind: try start.decodeIfPresent(ProcessStart.Kind.self, forKey: .kind) ?? .launch,
      milestones: try values.decodeIfPresent([Milestone].self, forKey: .milestones) ?? [],
      builds: try values.decodeIfPresent([BuildRecord].self, forKey: .builds) ?? [],
      transients: try values.decodeIfPresent([TransientRecord].self, forKey: .transients) ?? [],
      hazards: try values.decodeIfPresent([Hazard].self, forKey: .hazards) ?? [],
      dependencies: Dictionary(
        dependencies.map { ($0.service, $0.dependsOn ?? []) }, uniquingKeysWith: { $1 }),
      firstFrameUses: try values.decodeIfPresent([String].self, forKey: .firstFrameUses) ?? [],
      unusedServices: try values.decodeIfPresent([String].self, forKey: .unusedServices) ?? [],
      advice: try values.decodeIfPresent([Advice].self, forKey: .advice) ?? [],
      droppedRecords: try values.decodeIfPresent(Int.self, forKey: .droppedRecords) ?? 0)
  }

  /// Writes the report in the shape of its JSON schema, ``jsonSchema``: times in whole
  /// nanoseconds, dependencies sorted by service.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var values = encoder.container(keyedBy: CodingKeys.self)
    try values.encode(Self.jsonSchema, forKey: .schema)
    var start = values.nestedContainer(keyedBy: ProcessStartKeys.self, forKey: .processStart)
    try start.encode(processStart, forKey: .source)
    try start.encodeNanoseconds(processStartPrecision, forKey: .precisionNs)
    // Written only where it says something: a launch's document is as before.
    if processStartKind != .launch { try start.encode(processStartKind, forKey: .kind) }
    try values.encode(milestones, forKey: .milestones)
    try values.encode(builds, forKey: .builds)
    try values.encode(transients, forKey: .transients)
    try values.encode(hazards, forKey: .hazards)
    try values.encode(
      dependencies.sorted { $0.key < $1.key }.map { Dependency(service: $0, dependsOn: $1) },
      forKey: .dependencies)
    try values.encode(firstFrameUses, forKey: .firstFrameUses)
    try values.encode(unusedServices, forKey: .unusedServices)
    try values.encode(advice, forKey: .advice)
    // Written only where records were dropped: most documents are as before.
    if droppedRecords > 0 { try values.encode(droppedRecords, forKey: .droppedRecords) }
  }
}
