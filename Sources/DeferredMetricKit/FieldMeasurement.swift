import Deferred

/// Reports a container's launch to the field: an extended-launch task from `launch()` to the
/// moment the app is usable, and custom signposts for the launch phases and chosen services'
/// builds, which MetricKit aggregates in its daily payloads.
///
/// Moving work after the first frame shortens the time to first draw that Xcode Organizer
/// shows, while users may still wait for that work. With a field measurement attached, the
/// field's extended-launch histogram (`histogrammedExtendedLaunch`) runs to the moment the app
/// is usable, so what Deferred moved stays counted.
///
/// ```swift
/// let container = Container()
/// // … registrations …
/// FieldMeasurement(usable: .built(["Catalog", "SyncService"])).attach(to: container)
/// try container.launch()  // in application(_:didFinishLaunchingWithOptions:)
/// ```
///
/// **Extended launch.** The task starts inside `Container.launch(_:)`, on the main
/// thread (call `launch()` there, before the first scene becomes active, as MetricKit asks),
/// and finishes once, on the main thread, when the app is usable: fully ready, or once every
/// service named in ``Usable/built(_:)`` is built (or one of them failed). One task of
/// MetricKit's 16. A refusal of either call (a thrown error) is a
/// `Hazard.Kind.fieldMeasurement` hazard in the container's launch report, never a
/// crash; a task that did not start is not finished.
///
/// **Signposts.** The phases launch → first frame and first frame → fully ready, and the builds
/// of the chosen services (by default the critical ones: what users wait for before the first
/// frame), each service in a category of its own (``FieldSignposts``): signpost names must be
/// literals, categories need not. The system keeps a limited number of custom signpost
/// metrics, so at most ``serviceLimit`` services are emitted: the first ones built, or the
/// first ones named.
public final class FieldMeasurement: Sendable {
  /// When the app counts as usable: when the extended-launch task finishes.
  public enum Usable: Sendable, Hashable {
    /// When every service scheduled after the first frame is built.
    case fullyReady
    /// When each of these services (named as `BuildRecord.service` names them) is built, or
    /// one of them failed. Name services the launch builds (critical or scheduled after the
    /// first frame): while one is never built, the task stays open.
    case built(Set<String>)
  }

  /// Which services' builds are emitted as signposts.
  public enum Services: Sendable, Hashable {
    /// The critical ones: built before the first frame.
    case critical
    /// These, in this order.
    case named([String])
    /// None: the launch phases only.
    case none
  }

  /// The system calls on this platform: `MetricKitSystem` on iOS, `nil` elsewhere (a field
  /// measurement with no system does nothing).
  public static var platformSystem: (any FieldSystem)? {
    #if canImport(MetricKit) && os(iOS)
      MetricKitSystem()
    #else
      nil
    #endif
  }

  /// The most services emitted unless the app says otherwise.
  public static let defaultServiceLimit = 8

  /// The extended-launch task's identifier.
  public let taskID: String
  /// When the task finishes.
  public let usable: Usable
  /// Whose builds are emitted.
  public let services: Services
  /// The most services whose builds are emitted.
  public let serviceLimit: Int
  private let system: (any FieldSystem)?
  private let state = Locked(State())

  private struct State {
    var started = false
    var startFailed = false
    var finishing = false
    var waitingFor: Set<String> = []
    var emitted: [String] = []
    var skipped: [String] = []
    /// Builds under way whose begin was emitted, by service: their end is emitted too.
    var open: [String: Int] = [:]
  }

  /// Creates a field measurement, to attach to a container before it launches.
  ///
  /// - Parameters:
  ///   - system: The system calls; ``platformSystem`` by default (`nil`: nothing is done).
  ///   - usable: When the extended-launch task finishes; full readiness by default.
  ///   - services: Whose builds are emitted; the critical services by default.
  ///   - serviceLimit: The most services emitted; ``defaultServiceLimit`` by default.
  ///   - taskID: The extended-launch task's identifier.
  public init(
    system: (any FieldSystem)? = FieldMeasurement.platformSystem, usable: Usable = .fullyReady,
    services: Services = .critical, serviceLimit: Int = FieldMeasurement.defaultServiceLimit,
    taskID: String = "Deferred.launch"
  ) {
    self.system = system
    self.usable = usable
    self.services = services
    self.serviceLimit = max(0, serviceLimit)
    self.taskID = taskID
  }

  /// Follows `container`'s launch from now on (`Container.observeLaunch(_:)`):
  /// attach it before `Container.launch(_:)`. It replaces any launch observer the
  /// container had. Without a system, it does nothing.
  ///
  /// - Parameter container: The app's container.
  public func attach(to container: Container) {
    guard system != nil else { return }
    if case .built(let names) = usable { state.withLock { $0.waitingFor = names } }
    // The container keeps the measurement (its observer holds it); the measurement holds the
    // container weakly.
    container.observeLaunch { [weak container] event in
      guard let container else { return }
      self.handle(event, in: container)
    }
  }

  /// The services whose builds were emitted so far, in the order they were first emitted.
  public var emittedServices: [String] { state.withLock { $0.emitted } }

  /// The chosen services left out because ``serviceLimit`` was reached, in the order they
  /// were built.
  public var skippedServices: [String] { state.withLock { $0.skipped } }

  // MARK: - Following the launch

  private func handle(_ event: LaunchEvent, in container: Container) {
    guard let system else { return }
    switch event {
    case .milestone(.launchBegan):
      let first = state.withLock { state in
        defer { state.started = true }
        return !state.started
      }
      guard first else { return }
      onMain(container) { self.start(system, container) }
      system.signpost(.begin, category: FieldSignposts.phaseCategory, name: .launchToFirstFrame)
    case .milestone(.firstFrame):
      system.signpost(.end, category: FieldSignposts.phaseCategory, name: .launchToFirstFrame)
      system.signpost(
        .begin, category: FieldSignposts.phaseCategory, name: .firstFrameToFullyReady)
    case .milestone(.fullyReady):
      system.signpost(
        .end, category: FieldSignposts.phaseCategory, name: .firstFrameToFullyReady)
      if usable == .fullyReady { finish(system, container) }
    case .milestone: break
    case .buildBegan(let service, let priority):
      guard isEmitted(service, priority) else { return }
      system.signpost(.begin, category: FieldSignposts.category(of: service), name: .build)
    case .buildEnded(let service, _, let outcome):
      let wasOpen = state.withLock { state in
        guard let open = state.open[service] else { return false }
        state.open[service] = open > 1 ? open - 1 : nil
        return true
      }
      if wasOpen {
        system.signpost(.end, category: FieldSignposts.category(of: service), name: .build)
      }
      let usableNow = state.withLock { state in
        guard state.waitingFor.contains(service), outcome != .cancelled else { return false }
        if outcome == .built {
          state.waitingFor.remove(service)
          return state.waitingFor.isEmpty
        }
        state.waitingFor = []
        return true
      }
      if usableNow {
        if outcome == .failed {
          container.addHazard(
            Hazard(
              kind: .fieldMeasurement, service: service,
              detail: "\(service), which the app named as what makes it usable, failed to"
                + " build: the extended launch measurement ended with its failure."))
        }
        finish(system, container)
      }
    }
  }

  /// Whether a build of `service` is emitted; counts it open if so, and notes it emitted or
  /// skipped the first time.
  private func isEmitted(_ service: String, _ priority: Priority) -> Bool {
    let chosen: Bool
    switch services {
    case .critical: chosen = priority.stage == .critical
    case .named(let names): chosen = names.prefix(serviceLimit).contains(service)
    case .none: chosen = false
    }
    guard chosen else { return false }
    return state.withLock { state in
      if !state.emitted.contains(service) {
        guard state.emitted.count < serviceLimit else {
          if !state.skipped.contains(service) { state.skipped.append(service) }
          return false
        }
        state.emitted.append(service)
      }
      state.open[service, default: 0] += 1
      return true
    }
  }

  /// Starts the extended-launch task, on the main thread.
  private func start(_ system: any FieldSystem, _ container: Container) {
    do {
      try system.extendLaunchMeasurement(taskID: taskID)
    } catch {
      state.withLock { $0.startFailed = true }
      container.addHazard(
        Hazard(
          kind: .fieldMeasurement, service: "MetricKit",
          detail: "The system refused to extend its launch measurement (task \(taskID)):"
            + " \(error). The field's extended launch leaves out what came after the first"
            + " frame."))
    }
  }

  /// Finishes the extended-launch task, once, on the main thread; not if it did not start.
  private func finish(_ system: any FieldSystem, _ container: Container) {
    let first = state.withLock { state in
      defer { state.finishing = true }
      return !state.finishing
    }
    guard first else { return }
    onMain(container) {
      guard !self.state.withLock({ $0.startFailed }) else { return }
      do {
        try system.finishExtendedLaunchMeasurement(taskID: self.taskID)
      } catch {
        container.addHazard(
          Hazard(
            kind: .fieldMeasurement, service: "MetricKit",
            detail: "The system refused to finish the extended launch measurement (task"
              + " \(self.taskID)): \(error)."))
      }
    }
  }

  /// Runs `body` now if this is the main thread, else on the main queue through the
  /// container's scheduler (which a test steps).
  private func onMain(_ container: Container, _ body: @escaping @Sendable () -> Void) {
    if Container.isOnMainQueue {
      body()
    } else {
      container.scheduler.scheduleOnMain(
        LaunchJob(label: "field measurement", qos: .userInitiated, work: body))
    }
  }
}
