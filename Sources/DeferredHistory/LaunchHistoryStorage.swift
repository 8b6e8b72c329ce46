import Deferred

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
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

  /// Runs `body`, a save's read, merge and replacement, while no other save of the same
  /// store (in this process or another) runs its own.
  ///
  /// The default runs `body` at once: enough for a store only one history object uses.
  ///
  /// - Parameter body: The save.
  /// - Returns: What `body` returns.
  /// - Throws: ``LaunchHistoryStorageError`` if the store cannot be locked, or what `body`
  ///   throws.
  func withExclusiveAccess<Result>(
    _ body: () throws(LaunchHistoryStorageError) -> Result
  ) throws(LaunchHistoryStorageError) -> Result
}

extension LaunchHistoryStorage {
  /// Runs `body` at once: a store without a lock of its own.
  ///
  /// - Parameter body: The save.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public func withExclusiveAccess<Result>(
    _ body: () throws(LaunchHistoryStorageError) -> Result
  ) throws(LaunchHistoryStorageError) -> Result {
    try body()
  }
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

/// A launch history kept in one file of a directory.
///
/// A save holds an advisory lock (`flock`) on a lock file beside the history
/// (`deferred-launch-history.lock`) while it reads, merges and writes, so that saves of
/// several processes at once follow one another and lose no launch. It writes the new
/// history to a temporary file in the directory, flushes it to the disk and renames it over
/// the old one (`Data`'s atomic write): a reader sees one whole file or the other, never a
/// torn one.
///
/// A history path that is not a regular file (a directory, a FIFO, a device) is refused at
/// once, without being opened, and a file is opened without blocking: reading it never holds
/// up the first frame.
public struct DirectoryHistoryStorage: LaunchHistoryStorage {
  /// The file's name inside the directory.
  public static let fileName = "deferred-launch-history"
  /// The lock file's name inside the directory.
  public static let lockFileName = "deferred-launch-history.lock"

  /// The directory.
  public let directory: String

  /// Keeps the history in `directory`, which must exist (it is not created).
  ///
  /// - Parameter directory: The directory: the app's caches directory, say.
  public init(directory: String) {
    self.directory = directory
  }

  /// The history file's path.
  public var path: String { pathInDirectory(Self.fileName) }

  /// The lock file's path.
  public var lockPath: String { pathInDirectory(Self.lockFileName) }

  /// The file's path.
  public var description: String { path }

  private func pathInDirectory(_ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  /// Reads the whole file, or `nil` if there is none.
  ///
  /// - Parameter limit: The largest file read: a larger one throws without being read.
  /// - Returns: The file's bytes, or `nil`.
  /// - Throws: ``LaunchHistoryStorageError`` if the path is not a regular file, the file is
  ///   larger than `limit`, or it cannot be read.
  public func read(limit: Int) throws(LaunchHistoryStorageError) -> [UInt8]? {
    var status = stat()
    guard stat(path, &status) == 0 else {
      if errno == ENOENT { return nil }
      throw Self.failure("stat")
    }
    try Self.check(status, limit: limit)
    // Not blocking: a FIFO put there since the check opens at once, and fails the next one.
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw Self.failure("open") }
    defer { close(fd) }
    guard fstat(fd, &status) == 0 else { throw Self.failure("fstat") }
    try Self.check(status, limit: limit)
    // One byte more than the size: a file that grew since fstat is read to its end.
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
    var count = 0
    while true {
      if count == bytes.count {
        guard count <= limit else {
          throw LaunchHistoryStorageError("more than the \(limit) bytes a history may have")
        }
        bytes.append(contentsOf: repeatElement(0, count: max(4_096, count)))
      }
      let read = readSome(fd, into: &bytes[count...])
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
  ///   file is then left as it was.
  public func replace(with bytes: [UInt8]) throws(LaunchHistoryStorageError) {
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw LaunchHistoryStorageError("writing failed: \(error)")
    }
  }

  /// Runs `body` holding an exclusive `flock` on the lock file, which it creates if need be.
  /// The lock is the open file's: another storage object, in this process or another, waits
  /// for it.
  ///
  /// - Parameter body: The save.
  /// - Returns: What `body` returns.
  /// - Throws: ``LaunchHistoryStorageError`` if the lock file cannot be opened or locked, or
  ///   what `body` throws.
  public func withExclusiveAccess<Result>(
    _ body: () throws(LaunchHistoryStorageError) -> Result
  ) throws(LaunchHistoryStorageError) -> Result {
    let fd = open(lockPath, O_RDWR | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw Self.failure("opening the lock file") }
    // Closing the file releases the lock.
    defer { close(fd) }
    while flock(fd, LOCK_EX) != 0 {
      // A file system without locks: the save goes on unlocked, as a lone writer's would.
      if errno == ENOLCK || errno == EOPNOTSUPP { break }
      guard errno == EINTR else { throw Self.failure("flock") }
    }
    return try body()
  }

  /// Throws unless `status` is a regular file of at most `limit` bytes.
  private static func check(_ status: stat, limit: Int) throws(LaunchHistoryStorageError) {
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw LaunchHistoryStorageError("it is not a regular file")
    }
    guard Int(status.st_size) <= limit else {
      throw LaunchHistoryStorageError(
        "\(status.st_size) bytes, more than the \(limit) a history may have")
    }
  }

  private static func failure(_ call: String) -> LaunchHistoryStorageError {
    let code = errno
    return LaunchHistoryStorageError("\(call) failed: \(String(cString: strerror(code)))")
  }
}

/// `read(2)` into `buffer`: the storage's own `read(limit:)` hides the C function inside its
/// methods.
private func readSome(_ fd: Int32, into buffer: inout ArraySlice<UInt8>) -> Int {
  buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
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
