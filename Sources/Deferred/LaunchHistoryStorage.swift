#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where a ``LaunchHistory`` keeps its bytes between launches: a file in a directory
/// (``DirectoryHistoryStorage``), memory (``MemoryHistoryStorage``, for tests), or the app's
/// own.
///
/// The history reads everything once, and replaces everything when it saves: a storage only
/// has to make a replacement atomic, so that a reader sees the old bytes or the new ones,
/// never a mix.
public protocol LaunchHistoryStorage: Sendable, CustomStringConvertible {
  /// Everything stored, or `nil` if nothing is (the first launch).
  ///
  /// - Parameter limit: The most bytes the history reads: a larger store throws without
  ///   being read.
  /// - Returns: The bytes, or `nil`.
  /// - Throws: ``LaunchHistoryStorageError`` if the store is larger than `limit`, or cannot be
  ///   read.
  func read(limit: Int) throws(LaunchHistoryStorageError) -> [UInt8]?

  /// Replaces everything stored with `bytes`, atomically.
  ///
  /// - Parameter bytes: The new contents.
  /// - Throws: ``LaunchHistoryStorageError`` if they cannot be written; what was stored is
  ///   then left as it was.
  func replace(with bytes: [UInt8]) throws(LaunchHistoryStorageError)
}

/// Why a ``LaunchHistoryStorage`` could not read or write.
public struct LaunchHistoryStorageError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, in a sentence fragment: `"open failed: Permission denied"`.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: What went wrong.
  public init(_ message: String) {
    self.message = message
  }

  /// What went wrong.
  public var description: String { message }
}

/// A launch history kept in one file of a directory, written with plain POSIX calls.
///
/// A save writes a temporary file next to it (`mkstemp`), `fsync`s it and `rename`s it over
/// the history: the rename is atomic, so a reader, or another process saving at the same
/// time, sees one whole file or the other, never a torn one.
public struct DirectoryHistoryStorage: LaunchHistoryStorage {
  /// The file's name inside the directory.
  public static let fileName = "deferred-launch-history"

  /// The directory.
  public let directory: String

  /// Keeps the history in `directory`, which must exist (it is not created).
  ///
  /// - Parameter directory: The directory: the app's caches directory, say.
  public init(directory: String) {
    self.directory = directory
  }

  /// The history file's path.
  public var path: String {
    directory.hasSuffix("/") ? directory + Self.fileName : directory + "/" + Self.fileName
  }

  /// The file's path.
  public var description: String { path }

  /// Reads the whole file, or `nil` if there is none.
  ///
  /// - Parameter limit: The largest file read: a larger one throws without being read.
  /// - Returns: The file's bytes, or `nil`.
  /// - Throws: ``LaunchHistoryStorageError`` if the file is larger than `limit`, or cannot be
  ///   read.
  public func read(limit: Int) throws(LaunchHistoryStorageError) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 {
      if errno == ENOENT { return nil }
      throw Self.failure("open")
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw Self.failure("fstat") }
    let size = Int(status.st_size)
    guard size <= limit else {
      throw LaunchHistoryStorageError("\(size) bytes, more than the \(limit) a history may have")
    }
    // One byte more than the size: a file that grew since fstat is read to its end.
    var bytes = [UInt8](repeating: 0, count: size + 1)
    var count = 0
    while true {
      if count == bytes.count {
        guard count <= limit else {
          throw LaunchHistoryStorageError("more than the \(limit) bytes a history may have")
        }
        bytes.append(contentsOf: repeatElement(0, count: max(4_096, count)))
      }
      let read = bytes.withUnsafeMutableBytes { buffer in
        systemRead(fd, buffer.baseAddress! + count, buffer.count - count)
      }
      if read < 0 {
        if errno == EINTR { continue }
        throw Self.failure("read")
      }
      if read == 0 { break }
      count += read
    }
    bytes.removeSubrange(count...)
    return bytes
  }

  /// Writes `bytes` to a temporary file in the directory, flushes it to the disk, and renames
  /// it over the history file.
  ///
  /// - Parameter bytes: The new contents.
  /// - Throws: ``LaunchHistoryStorageError`` if the directory cannot be written; the history
  ///   file is then left as it was, and the temporary file removed.
  public func replace(with bytes: [UInt8]) throws(LaunchHistoryStorageError) {
    var template = Array((path + ".XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw Self.failure("creating a temporary file in \(directory)") }
    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var failure: LaunchHistoryStorageError?
    var written = 0
    while failure == nil && written < bytes.count {
      let result = bytes.withUnsafeBytes { buffer in
        write(fd, buffer.baseAddress! + written, buffer.count - written)
      }
      if result < 0 {
        if errno != EINTR { failure = Self.failure("write") }
      } else {
        written += result
      }
    }
    if failure == nil && fchmod(fd, 0o644) != 0 { failure = Self.failure("fchmod") }
    if failure == nil && fsync(fd) != 0 { failure = Self.failure("fsync") }
    if close(fd) != 0 && failure == nil { failure = Self.failure("close") }
    if failure == nil && rename(temporary, path) != 0 { failure = Self.failure("rename") }
    if let failure {
      unlink(temporary)
      throw failure
    }
    // The rename itself reaches the disk with the directory's entry.
    let directoryFD = open(directory, O_RDONLY | O_CLOEXEC)
    if directoryFD >= 0 {
      _ = fsync(directoryFD)
      close(directoryFD)
    }
  }

  private static func failure(_ call: String) -> LaunchHistoryStorageError {
    let code = errno
    return LaunchHistoryStorageError("\(call) failed: \(String(cString: strerror(code)))")
  }
}

/// `read(2)`, which the storage's own `read(limit:)` hides inside its methods.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, buffer, count)
}

/// A launch history kept in memory: for tests, which read and change its bytes directly.
public final class MemoryHistoryStorage: LaunchHistoryStorage {
  private let state: Locked<(bytes: [UInt8]?, writes: Int, failure: LaunchHistoryStorageError?)>

  /// Creates a storage holding `bytes`.
  ///
  /// - Parameter bytes: What is stored; `nil`, the default, stores nothing.
  public init(bytes: [UInt8]? = nil) {
    state = Locked((bytes, 0, nil))
  }

  /// What is stored, or `nil` if nothing is.
  public var bytes: [UInt8]? {
    get { state.withLock { $0.bytes } }
    set { state.withLock { $0.bytes = newValue } }
  }

  /// How many times the bytes were replaced.
  public var writes: Int { state.withLock { $0.writes } }

  /// The error every replacement throws from now on, to test a storage that cannot be
  /// written; `nil` writes.
  public var writeFailure: LaunchHistoryStorageError? {
    get { state.withLock { $0.failure } }
    set { state.withLock { $0.failure = newValue } }
  }

  /// `"memory"`.
  public var description: String { "memory" }

  /// The stored bytes, or `nil`.
  ///
  /// - Parameter limit: The most bytes read.
  /// - Returns: The bytes, or `nil`.
  /// - Throws: ``LaunchHistoryStorageError`` if more than `limit` bytes are stored.
  public func read(limit: Int) throws(LaunchHistoryStorageError) -> [UInt8]? {
    let bytes = self.bytes
    if let bytes, bytes.count > limit {
      throw LaunchHistoryStorageError(
        "\(bytes.count) bytes, more than the \(limit) a history may have")
    }
    return bytes
  }

  /// Stores `bytes` instead of what was stored, unless ``writeFailure`` is set.
  ///
  /// - Parameter bytes: The new contents.
  /// - Throws: ``writeFailure``, if set.
  public func replace(with bytes: [UInt8]) throws(LaunchHistoryStorageError) {
    let failure = state.withLock { state in
      if state.failure == nil {
        state.bytes = bytes
        state.writes += 1
      }
      return state.failure
    }
    if let failure { throw failure }
  }
}
