import Deferred
import DeferredHistory
import Dispatch

/// One launch of the demo app: from `launch()`, through the first frame and the keys the user
/// types at once, until every service is built and every edit has reached sync.
public struct LaunchSession: Sendable {
  /// The keys the user types as soon as the keypad is on screen: two calculations.
  public static let typedKeys = ["1", "2", "×", "3", "+", "4", "=", "2", "÷", "8", "="]

  /// How the app launches.
  public var mode: LaunchMode
  /// The app's installed files.
  public var files: AppFiles
  /// How much work the services do.
  public var workload: Workload
  /// Where the app draws.
  public var screen: Screen
  /// The queue the app's user interface runs on: the main queue in the demo.
  public var interfaceQueue: DispatchQueue
  /// Runs the deferred builds.
  public var scheduler: any LaunchScheduler
  /// Times the launch.
  public var clock: any LaunchClock
  /// How many deferred builds may run at once; one a core if `nil`.
  public var maxConcurrentBuilds: Int?
  /// What past launches cost, if the app keeps a history: it orders the background builds,
  /// and the container records this launch in it once fully ready.
  public var history: LaunchHistory?
  /// Awaited once the app is fully ready, before the report is made: what the app's
  /// background jobs still do (the history's recording, say).
  public var settle: @Sendable () async -> Void = {}

  /// Creates a session.
  ///
  /// - Parameters:
  ///   - mode: How the app launches.
  ///   - files: The app's installed files.
  ///   - workload: How much work the services do.
  ///   - screen: Where the app draws.
  ///   - interfaceQueue: The queue the user interface runs on.
  ///   - scheduler: Runs the deferred builds.
  ///   - clock: Times the launch.
  public init(
    mode: LaunchMode, files: AppFiles, workload: Workload, screen: Screen,
    interfaceQueue: DispatchQueue = .main, scheduler: any LaunchScheduler = DispatchScheduler(),
    clock: any LaunchClock = MonotonicClock()
  ) {
    self.mode = mode
    self.files = files
    self.workload = workload
    self.screen = screen
    self.interfaceQueue = interfaceQueue
    self.scheduler = scheduler
    self.clock = clock
  }

  /// Launches the app, lets the user type, and waits until everything is done.
  ///
  /// Run it on the main actor, as the demo does, and the launch's main-thread work is on the
  /// main thread.
  ///
  /// - Parameter isolation: The caller's actor; the launch runs on it.
  /// - Returns: The report and what the session did.
  /// - Throws: `DeferredError` or ``DemoError`` if a service fails.
  public func run(isolation: isolated (any Actor)? = #isolation) async throws -> LaunchOutcome {
    let container = try AppServices.makeContainer(
      mode: mode, files: files, workload: workload, colored: screen.colored,
      scheduler: scheduler, clock: clock, maxConcurrentBuilds: maxConcurrentBuilds,
      history: history)
    try container.launch()
    if mode == .eager {
      // Without Deferred, the async services are awaited before anything is drawn.
      _ = try await container.awaitService(SyncService.self)
      _ = try await container.awaitService(ConfigRefresh.self)
    }
    // The first frame: the keypad, drawn from the theme's images.
    let drawBegan = clock.now()
    screen.write(try Self.resolveHere(KeypadFrame.self, in: container).text)
    let drawing = clock.now() - drawBegan
    try container.firstFrameDrawn()

    // The user types at once. Keys wait for the calculator, edits for sync: none is lost.
    let syncQueue = DispatchQueue(label: "sync")
    let edits = Locked<[(edit: Edit, time: UInt64)]>([])
    for key in Self.typedKeys {
      try container.whenReady(Calculator.self, on: interfaceQueue) { calculator in
        guard let edit = calculator.press(key) else { return }
        edits.withLock { $0.append((edit, clock.now())) }
        try? container.whenReady(SyncService.self, on: syncQueue) { sync in sync.push(edit) }
      }
    }
    let calculator = try await Self.ready(Calculator.self, in: container, on: interfaceQueue)
    let display = calculator.display
    // The keypad's view model, built on the main-thread lane once the calculator is.
    let keypad = try await Self.ready(KeypadModel.self, in: container, on: interfaceQueue)
    // The keys are applied: the app has settled, and idle services may start.
    container.appIsIdle()
    // The edits were handed to sync before this, on the same queue.
    let sync = try await Self.ready(SyncService.self, in: container, on: syncQueue)
    let delivered = sync.sent
    var fixes: [Fix] = []
    let location = try await Self.ready(LocationProvider.self, in: container, on: interfaceQueue)
    for await fix in location.fixes(count: 3) { fixes.append(fix) }
    try await container.fullyReady()

    // The user opens conversions, built while the app was idle.
    let conversions = try await container.awaitService(Conversions.self)
    let refresh = try await container.awaitService(ConfigRefresh.self)
    let remote = try await container.awaitService(SimulatedRemote.self)
    _ = try await container.awaitService(Calculator.self)
    _ = try await container.awaitService(LocationProvider.self)
    _ = try await container.awaitService(SyncService.self)
    // And the tape's features.
    let suggestions = try await container.awaitService(Suggestions.self)
    let tips = try await container.awaitService(TipsCatalog.self)
    let achievements = try await container.awaitService(Achievements.self)
    await settle()
    let report = container.launchReport()

    let made = edits.withLock { $0 }
    var notes: [String] = []
    notes.append(
      "drew the keypad in \(Format.milliseconds(.nanoseconds(Int64(clamping: drawing)), places: 2)) (part of the first frame)"
    )
    let firstFrame = report.offset(of: .firstFrame) ?? .zero
    let calculatorEnd = report.builds.first { $0.service == "Calculator" }?.end ?? .zero
    let readiness =
      calculatorEnd > firstFrame
      ? "the calculator was ready \(Format.milliseconds(calculatorEnd - firstFrame, places: 2))"
        + " after"
        + " the first frame: the keys waited, in order"
      : "the calculator was ready before the first frame"
    notes.append(
      "typed \(Self.typedKeys.joined()) at the first frame; \(readiness); display \(display)")
    let lane = report.builds.first { $0.service == "KeypadModel" }
    let keypadDisplay = await MainActor.run {
      keypad.refresh()
      return keypad.display
    }
    notes.append(
      "the keypad's view model was built on the main actor (thread \(lane?.thread ?? "?"),"
        + " \(lane?.trigger == .scheduled ? "its own turn of the main queue after the first frame" : "in launch()"));"
        + " it shows \(keypadDisplay)")
    // Edits made before sync's build ended were queued by whenReady.
    let processStart = clock.processStart.nanoseconds
    let syncEnd = report.builds.first { $0.service == "SyncService" }?.end ?? .zero
    let early = made.filter { .nanoseconds(Int64(clamping: $0.time &- processStart)) < syncEnd }
      .count
    let lost = made.count - delivered.count
    notes.append(
      "\(made.count) edits (\(made.map(\.edit.description).joined(separator: ", "))):"
        + " \(early) made before sync was ready and queued, \(delivered.count) delivered,"
        + " \(lost == 0 ? "none" : String(lost)) lost")
    notes.append(
      "sync reconciled \(sync.records) journal records (\(sync.changedRemotely) changed"
        + " remotely); the remote's latency is simulated: \(remote.roundTrips) round trips of"
        + " \(Format.milliseconds(workload.latency)) (Task.sleep),"
        + " \(Format.milliseconds(remote.simulatedLatency)) in all")
    let refreshed = refresh.settings.version
    notes.append(
      "the calculator replayed \(calculator.replayed) past calculations"
        + " (\(calculator.mismatches) mismatches); "
        + (mode == .eager
          ? "the config was refreshed to v\(refreshed) before the first frame"
          : "config v\(refreshed - 1) shown from the cache, refreshed to v\(refreshed) in the"
            + " background"))
    if let last = fixes.last {
      notes.append(
        "location: \(fixes.count) positions after a warm-up over \(location.warmUpSamples)"
          + " samples; last \(Format.decimal(last.latitude, places: 5)),"
          + " \(Format.decimal(last.longitude, places: 5)) ±\(Format.decimal(last.accuracy, places: 1)) m"
      )
    }
    let marathon = conversions.convert(26.2188, from: "mi", to: "km") ?? .nan
    notes.append(
      "conversions: \(conversions.units.count) units parsed; 26.2188 mi ="
        + " \(Format.decimal(marathon, places: 3)) km")
    notes.append(
      "tape: \(suggestions.expressions.count) suggestions (first: \(suggestions.expressions.first ?? "-")),"
        + " \(tips.tips.count) tips, a \(achievements.longestStreak)-day streak")
    return LaunchOutcome(
      mode: mode, report: report, notes: notes, edits: made.map(\.edit), delivered: delivered,
      display: display)
  }

  /// Resolves on the calling thread (in async code, `resolve` would pick its async form).
  private static func resolveHere<Value: Sendable>(
    _ type: Value.Type, in container: Container
  ) throws -> Value {
    try container.resolve(Value.self)
  }

  /// The service once it is built, without causing its build.
  private static func ready<Value: Sendable>(
    _ type: Value.Type, in container: Container, on queue: DispatchQueue
  ) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      do {
        try container.whenReady(Value.self, on: queue) { continuation.resume(returning: $0) }
      } catch {
        continuation.resume(throwing: error)
      }
    }
  }
}
