import Deferred

/// A file-backed store of named records in a directory, one file a record, read and written
/// with `open`, `read` and `write`.
///
/// Opening it reads the store's metadata and writes it back with one more launch counted; every
/// read and write after that goes to the disk.
public final class Storage: Sendable {
  /// The directory the records live in.
  public let directory: String
  /// How many launches have opened this store, this one included.
  public let launchCount: Int
  private let writes = Locked(0)

  /// Opens the store in `directory`, which must exist.
  ///
  /// - Parameter directory: The store's directory.
  /// - Throws: ``DemoError`` if the metadata cannot be read or written.
  public init(directory: String) throws(DemoError) {
    self.directory = directory
    let names = Files.list(directory).filter { $0.hasSuffix(".rec") }
    guard names.contains("meta.rec") else {
      throw DemoError("\(directory) is not a store: it has no meta.rec")
    }
    let meta = String(decoding: try Files.read("\(directory)/meta.rec"), as: UTF8.self)
    var fields = Settings.fields(of: meta)
    let count = (fields["launches"].flatMap { Int($0) } ?? 0) + 1
    fields["launches"] = String(count)
    fields["records"] = String(names.count)
    launchCount = count
    try Files.write(Settings.text(of: fields), to: "\(directory)/meta.rec")
  }

  /// Reads a record.
  ///
  /// - Parameter name: The record's name.
  /// - Returns: Its bytes.
  /// - Throws: ``DemoError`` if there is no such record.
  public func read(_ name: String) throws(DemoError) -> [UInt8] {
    try Files.read(path(of: name))
  }

  /// Writes a record, replacing it at once.
  ///
  /// - Parameters:
  ///   - bytes: The record.
  ///   - name: The record's name.
  /// - Throws: ``DemoError`` if it cannot be written.
  public func write(_ bytes: [UInt8], to name: String) throws(DemoError) {
    try Files.write(bytes, to: path(of: name))
    writes.withLock { $0 += 1 }
  }

  /// How many records this launch has written.
  public var writeCount: Int { writes.withLock { $0 } }

  private func path(of name: String) -> String { "\(directory)/\(name).rec" }
}
