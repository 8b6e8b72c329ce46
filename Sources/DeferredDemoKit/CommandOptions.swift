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
