/// A launch as data: its milestones, what every initializer cost, and the hazards worth fixing.
///
/// Get one from ``Container/launchReport(criticalShareLimit:)`` and render it as a table
/// (``text()``), JSON (``json(pretty:)``), a Chrome/Perfetto trace (``chromeTrace()``), an SVG
/// timeline (``svg()``) or a dependency graph (``dot()``); hold it to a budget with
/// ``check(_:)``.
///
/// ```swift
/// try container.firstFrameDrawn()
/// try await container.fullyReady()
/// let report = container.launchReport()
/// print(report.text())
/// #expect(report.check(LaunchBudget(firstFrame: .milliseconds(400))).isEmpty)
/// ```
///
/// Every time is in nanoseconds; offsets count from the process start.
public struct LaunchReport: Sendable, Hashable {
  /// Where the process start came from, and how precise it is.
  public var processStart: ProcessStart.Source
  /// The precision of the process start, in nanoseconds.
  public var processStartPrecision: UInt64
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

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - processStart: Where the process start came from.
  ///   - processStartPrecision: How precise it is, in nanoseconds.
  ///   - milestones: The steps of the launch.
  ///   - builds: Every singleton build.
  ///   - transients: Transient services.
  ///   - hazards: What is worth fixing.
  ///   - dependencies: The dependency graph.
  public init(
    processStart: ProcessStart.Source, processStartPrecision: UInt64, milestones: [Milestone],
    builds: [BuildRecord], transients: [TransientRecord] = [], hazards: [Hazard] = [],
    dependencies: [String: [String]] = [:]
  ) {
    self.processStart = processStart
    self.processStartPrecision = processStartPrecision
    self.milestones = milestones
    self.builds = builds
    self.transients = transients
    self.hazards = hazards
    self.dependencies = dependencies
  }

  /// When `kind` happened, from the process start, if it has.
  public func offset(of kind: Milestone.Kind) -> UInt64? {
    milestones.first { $0.kind == kind }?.offset
  }

  /// How long the critical phase took: from ``Milestone/Kind/launchBegan`` to
  /// ``Milestone/Kind/criticalReady``.
  public var criticalPhase: UInt64? {
    guard let begin = offset(of: .launchBegan), let end = offset(of: .criticalReady) else {
      return nil
    }
    return end - begin
  }
}
