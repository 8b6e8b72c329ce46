/// What `launch` does.
public struct LaunchOptions: Sendable, Hashable {
  /// Which launch.
  public var mode: LaunchMode
  /// Print the report as JSON instead of text.
  public var json = false
  /// Where to write the Chrome trace, if anywhere.
  public var tracePath: String?
  /// Where to write the SVG timeline, if anywhere.
  public var svgPath: String?
  /// The factor the work is scaled by, at least 1.
  public var slowdown = 1.0
  /// Files installed by an earlier run (`compare` passes them to its children).
  public var dataDirectory: String?
  /// Where to draw the screen; standard output, or nowhere with `--json`, by default.
  public var screen: ScreenTarget?
  /// Draw in colour even when the screen is not a terminal.
  public var color = false
  /// The directory of the launch history to order the background builds by and to record the
  /// launch in, if any.
  public var historyDirectory: String?
  /// How many deferred builds may run at once; one a core if `nil`.
  public var workers: Int?
  /// Services whose work is scaled further, by name (``Workload/slowed``).
  public var slowed: [String: Double] = [:]

  /// Creates options for one launch.
  ///
  /// - Parameter mode: Which launch.
  public init(mode: LaunchMode) {
    self.mode = mode
  }
}

/// What `compare` does.
public struct CompareOptions: Sendable, Hashable {
  /// Launches per mode.
  public var runs = 10
  /// Print one JSON object instead of a table.
  public var json = false
  /// The factor the work is scaled by, at least 1.
  public var slowdown = 1.0

  /// Creates the default options: 10 runs, a table.
  public init() {}
}

/// What `advise` does.
public struct AdviseOptions: Sendable, Hashable {
  /// The factor the work is scaled by, at least 1.
  public var slowdown = 1.0

  /// Creates the default options.
  public init() {}
}

/// What `history` does.
public struct HistoryOptions: Sendable, Hashable {
  /// Launches of the deferred app.
  public var runs = 5
  /// How many deferred builds may run at once in each.
  public var workers = 2
  /// Where to keep the history, and leave it; a temporary directory, removed, if `nil`.
  public var historyDirectory: String?
  /// Services whose work the last launch scales further, by name (``Workload/slowed``).
  public var slowed: [String: Double] = [:]
  /// The factor every service's work is scaled by, at least 1.
  public var slowdown = 1.0

  /// Creates the default options: 5 launches, 2 workers, a temporary history.
  public init() {}
}

/// What `field` does.
public struct FieldOptions: Sendable, Hashable {
  /// The MetricKit payload files to read, oldest first; the fixtures' two days if empty.
  public var payloads: [String] = []
  /// Whether to print the field report as JSON.
  public var json = false
  /// The factor the work is scaled by, at least 1.
  public var slowdown = 1.0

  /// Creates the default options: the fixtures' payloads, a table.
  public init() {}
}
