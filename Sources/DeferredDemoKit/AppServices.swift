import Deferred
import DeferredHistory

/// The demo app's composition root: every service registered once, with the priority each has
/// in a launch mode.
///
/// | service | deferred | eager |
/// | --- | --- | --- |
/// | `Storage`, `CachedConfig`, `ThemeEngine` | critical | critical |
/// | `Calculator` | after the first frame (user-initiated) | critical |
/// | `KeypadModel` (main actor) | the main-thread lane, after the first frame | critical, on the main actor |
/// | `LocationProvider` | after the first frame | critical |
/// | `TipsCatalog`, `Achievements`, `TapeIndex`, `Suggestions` (needs `TapeIndex`) | after the first frame | critical |
/// | `SyncService` (async) | after the first frame | awaited before the first frame |
/// | `SimulatedRemote` | on demand (sync needs it) | critical |
/// | `Conversions`, `ConfigRefresh` | idle | critical / awaited before the first frame |
/// | `KeypadFrame` (transient) | drawn on demand | drawn on demand |
public enum AppServices {
  /// The services whose work ``Workload/slowed`` can scale: those whose factories are handed
  /// a workload (the others' work is the size of the files installed).
  public static let scalable: Set<String> = [
    "ThemeEngine", "LocationProvider", "SimulatedRemote", "TipsCatalog", "Achievements",
    "TapeIndex", "Suggestions",
  ]

  /// How long after the first frame idle services wait if the app never says it is idle.
  public static let idleDelay = Duration.seconds(5)

  /// Makes the app's container.
  ///
  /// - Parameters:
  ///   - mode: Which launch to wire.
  ///   - files: The files installed for the app.
  ///   - workload: How much work the services do.
  ///   - colored: Whether the keypad is drawn with colour.
  ///   - scheduler: Runs the deferred builds; tests pass a `ManualScheduler`.
  ///   - clock: Times the launch; tests pass a `ManualClock`.
  ///   - maxConcurrentBuilds: How many deferred builds may run at once; one a core by default.
  ///   - history: What past launches cost, to order the background builds by; none by
  ///     default.
  /// - Returns: The container, with nothing built yet.
  /// - Throws: `DeferredError` if a registration is refused.
  public static func makeContainer(
    mode: LaunchMode, files: AppFiles, workload: Workload, colored: Bool = false,
    scheduler: any LaunchScheduler = DispatchScheduler(),
    clock: any LaunchClock = MonotonicClock(), maxConcurrentBuilds: Int? = nil,
    history: LaunchHistory? = nil
  ) throws(DeferredError) -> Container {
    let container = Container(
      scheduler: scheduler, clock: clock, maxConcurrentBuilds: maxConcurrentBuilds,
      recording: .timingsAndCPU, history: history)
    let eager = mode == .eager
    /// Eager apps build every synchronous service before the first frame.
    func deferred(_ priority: Priority) -> Priority { eager ? .critical : priority }

    // What the first frame needs, in both modes.
    try container.register(Storage.self, priority: .critical) {
      try Storage(directory: files.store)
    }
    try container.register(CachedConfig.self, priority: .critical) { (storage: Storage) in
      try CachedConfig(storage: storage)
    }
    try container.register(ThemeEngine.self, priority: .critical) {
      ThemeEngine(workload: workload.of("ThemeEngine"))
    }
    try container.register(KeypadFrame.self, scope: .transient) {
      (theme: ThemeEngine, config: CachedConfig) in
      KeypadFrame(theme: theme, settings: config.current, display: "0", colored: colored)
    }

    // What it does not.
    try container.register(
      Calculator.self, priority: deferred(.afterFirstFrame(.userInitiated))
    ) { (storage: Storage, config: CachedConfig) in
      try Calculator(storage: storage, config: config)
    }
    // A view model: built on the main actor, so deferred, on the main-thread lane.
    try container.registerMainActor(
      KeypadModel.self, priority: deferred(.afterFirstFrame()), KeypadModel.init(calculator:))
    try container.register(LocationProvider.self, priority: deferred(.afterFirstFrame())) {
      LocationProvider(workload: workload.of("LocationProvider"))
    }
    // Features of the tape nothing on the first screen shows: two short builds, registered
    // first, and a chain (the index, then the suggestions made from it) that takes longer.
    // Registration order runs the short ones first; a launch history, the chain's head.
    try container.register(TipsCatalog.self, priority: deferred(.afterFirstFrame())) {
      TipsCatalog(workload: workload.of("TipsCatalog"))
    }
    try container.register(Achievements.self, priority: deferred(.afterFirstFrame())) {
      Achievements(workload: workload.of("Achievements"))
    }
    try container.register(TapeIndex.self, priority: deferred(.afterFirstFrame())) {
      (storage: Storage) in
      try TapeIndex(storage: storage, workload: workload.of("TapeIndex"))
    }
    try container.register(Suggestions.self, priority: deferred(.afterFirstFrame())) {
      (index: TapeIndex) in
      Suggestions(index: index, workload: workload.of("Suggestions"))
    }
    try container.register(SimulatedRemote.self, priority: deferred(.onDemand)) {
      SimulatedRemote(workload: workload.of("SimulatedRemote"))
    }
    // Async factories cannot run inside `launch()`: an eager app awaits them before drawing.
    try container.register(
      SyncService.self, priority: eager ? .onDemand : .afterFirstFrame()
    ) { (storage: Storage, remote: SimulatedRemote) async throws in
      try await SyncService.connect(storage: storage, remote: remote)
    }
    try container.register(Conversions.self, priority: deferred(.idle(after: idleDelay))) {
      try Conversions(tablePath: files.unitsTable)
    }
    try container.register(
      ConfigRefresh.self, priority: eager ? .onDemand : .idle(after: idleDelay)
    ) { (storage: Storage, remote: SimulatedRemote, config: CachedConfig) async throws in
      try await ConfigRefresh.run(storage: storage, remote: remote, config: config)
    }
    return container
  }
}
