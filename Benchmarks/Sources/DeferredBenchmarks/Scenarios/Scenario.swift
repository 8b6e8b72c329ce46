/// One question the benchmarks answer, with a row per contender.
///
/// Adding a scenario is one more file that defines it and one more entry in ``all``.
struct Scenario: Sendable {
  /// The scenario's key in the JSON report.
  let name: String
  /// What a row's figure is, for the table.
  let title: String
  /// The rows, made when the scenario runs.
  let rows: @Sendable () -> [Row]

  /// Every scenario, in the order they run and are reported.
  static let all: [Scenario] = [
    .resolveCached,
    .resolveTransient,
    .resolveArgument,
    .resolveWeak,
    .resolveScoped,
    .register1000,
    .chainFirstResolve,
    .contendedResolve,
    .coldFirstResolve,
    .coldFirstResolve1000,
    .launch10000,
    .recordingOverhead,
  ]
}

/// The names of the rows, as the report shows them.
enum Contender {
  static let deferred = "Deferred"
  /// Deferred read through a ``ServiceHandle``, looked up once.
  static let deferredHandle = "DeferredHandle"
  /// Deferred read through a ``ServiceHandle``'s `resolve()`: a copy of the value.
  static let deferredHandleResolve = "DeferredHandleResolve"
  static let swinject = "Swinject"
  static let dependencies = "swift-dependencies"
  /// A hand-written lazy value behind `Synchronization.Mutex`.
  static let lazyMutex = "lazyMutex"
  /// A global `static let`.
  static let staticLet = "staticLet"
  /// A hand-written container: a dictionary of lazy factories behind one mutex
  /// (``HandWrittenContainer``).
  static let handWritten = "handWritten"

  /// The dependency-injection libraries, which every scenario compares.
  static let containers = [deferred, swinject, dependencies]
}
