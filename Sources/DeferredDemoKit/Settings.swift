import Deferred

/// The app's configuration: what the display shows and how.
public struct Settings: Sendable, Hashable {
  /// `deg` or `rad`.
  public var angleUnit: String
  /// How many significant digits the display shows.
  public var precision: Int
  /// The configuration's version on the remote.
  public var version: Int
  /// Where it came from: `cached` (read from storage) or `refreshed` (from the remote).
  public var source: String

  /// Reads settings written as `key=value` lines.
  ///
  /// - Parameters:
  ///   - text: The lines.
  ///   - source: Where they came from.
  /// - Throws: ``DemoError`` if a field is missing or out of range.
  public init(parsing text: String, source: String) throws(DemoError) {
    let fields = Self.fields(of: text)
    guard let angle = fields["angle"], angle == "deg" || angle == "rad",
      let precision = fields["precision"].flatMap({ Int($0) }), (1...17).contains(precision),
      let version = fields["version"].flatMap({ Int($0) })
    else { throw DemoError("bad configuration: \(text)") }
    self.angleUnit = angle
    self.precision = precision
    self.version = version
    self.source = source
  }

  /// The settings as `key=value` lines.
  public var text: String {
    Self.text(of: ["angle": angleUnit, "precision": String(precision), "version": String(version)])
  }

  /// A line for the display: `DEG · 10 digits · config v3 (cached)`.
  public var summary: String {
    "\(angleUnit.uppercased()) · \(precision) digits · config v\(version) (\(source))"
  }

  static func fields(of text: String) -> [String: String] {
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let equals = line.firstIndex(of: "=") else { continue }
      fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    return fields
  }

  static func text(of fields: [String: String]) -> String {
    fields.keys.sorted().map { "\($0)=\(fields[$0]!)\n" }.joined()
  }
}

/// The configuration the first frame shows: read from storage at launch, replaced when the
/// background refresh brings a newer one.
public final class CachedConfig: Sendable {
  private let state: Locked<Settings>

  /// Reads the cached configuration from storage.
  ///
  /// - Parameter storage: The store holding the `config` record.
  /// - Throws: ``DemoError`` if the record is missing or bad.
  public init(storage: Storage) throws(DemoError) {
    let text = String(decoding: try storage.read("config"), as: UTF8.self)
    state = Locked(try Settings(parsing: text, source: "cached"))
  }

  /// The configuration now.
  public var current: Settings { state.withLock { $0 } }

  /// Replaces the configuration.
  ///
  /// - Parameter settings: The new one.
  public func update(_ settings: Settings) {
    state.withLock { $0 = settings }
  }
}
