/// The files the app finds on disk when it launches: the units table it ships with, and the
/// store a previous session left (metadata, cached configuration, the journal of past
/// calculations).
///
/// The demo generates them before any launch (`compare` once for all its child processes), as
/// an installer and earlier sessions would have.
public struct AppFiles: Sendable, Hashable {
  /// The directory holding them.
  public let directory: String

  /// Uses files installed in `directory` already.
  ///
  /// - Parameter directory: Where ``install(in:workload:)`` put them.
  public init(directory: String) {
    self.directory = directory
  }

  /// The units table.
  public var unitsTable: String { "\(directory)/units.tsv" }
  /// The store's directory.
  public var store: String { "\(directory)/store" }

  /// Generates the files, their sizes in proportion to the workload.
  ///
  /// - Parameters:
  ///   - directory: An existing directory to put them in.
  ///   - workload: How much data to generate.
  /// - Returns: The installed files.
  /// - Throws: ``DemoError`` if a file cannot be written.
  public static func install(in directory: String, workload: Workload) throws(DemoError)
    -> AppFiles
  {
    let files = AppFiles(directory: directory)
    try Files.makeDirectory(files.store)
    try Files.write(GeneratedData.unitsTable(lines: workload.count(20_000)), to: files.unitsTable)
    try Files.write("launches=0\n", to: "\(files.store)/meta.rec")
    try Files.write("angle=deg\nprecision=10\nversion=3\n", to: "\(files.store)/config.rec")
    try Files.write(
      GeneratedData.journal(entries: workload.count(7_000)), to: "\(files.store)/history.rec")
    return files
  }

  /// Whether the files are there.
  var isInstalled: Bool {
    Files.size(of: unitsTable) != nil && Files.size(of: "\(store)/meta.rec") != nil
  }
}
