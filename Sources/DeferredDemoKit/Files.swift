import Deferred

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Numbers the temporary files writes go through, so that two threads never share one.
private let temporaryFiles = Locked(0)

/// File system calls through the C library: the demo links no Foundation.
public enum Files {
  /// Makes a new, empty directory under `$TMPDIR` (or `/tmp`) with `mkdtemp`.
  ///
  /// - Parameter prefix: The start of the directory's name.
  /// - Returns: The directory's path.
  /// - Throws: ``DemoError`` if it cannot be made.
  public static func makeTemporaryDirectory(prefix: String) throws(DemoError) -> String {
    var base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    if base.isEmpty { base = "/tmp" }
    while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard made != nil else {
      throw DemoError("cannot make a temporary directory in \(base): \(errorText())")
    }
    return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }

  /// Reads a whole file.
  ///
  /// - Parameter path: The file.
  /// - Returns: Its bytes.
  /// - Throws: ``DemoError`` if it cannot be read.
  public static func read(_ path: String) throws(DemoError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw DemoError("cannot open \(path): \(errorText())") }
    defer { close(fd) }
    var info = stat()
    let size = fstat(fd, &info) == 0 ? Int(info.st_size) : 0
    // One byte more than the file holds, so that the end is found without growing.
    var bytes = [UInt8](repeating: 0, count: max(size + 1, 4_096))
    var filled = 0
    while true {
      if filled == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
      let count = bytes.withUnsafeMutableBytes { raw in
        readSome(fd, raw.baseAddress! + filled, raw.count - filled)
      }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw DemoError("cannot read \(path): \(errorText())") }
      if count == 0 { break }
      filled += count
    }
    bytes.removeSubrange(filled...)
    return bytes
  }

  /// Writes a whole file, replacing it at once: the bytes go to a temporary file that is then
  /// renamed over `path`, so a reader never sees half a file.
  ///
  /// - Parameters:
  ///   - bytes: What to write.
  ///   - path: The file.
  /// - Throws: ``DemoError`` if it cannot be written.
  public static func write(_ bytes: some Collection<UInt8>, to path: String) throws(DemoError) {
    let serial = temporaryFiles.withLock {
      $0 += 1
      return $0
    }
    let temporary = "\(path).\(getpid()).\(serial).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw DemoError("cannot create \(temporary): \(errorText())") }
    let written = Array(bytes).withUnsafeBytes { raw -> Bool in
      var offset = 0
      while offset < raw.count {
        let count = writeSome(fd, raw.baseAddress! + offset, raw.count - offset)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        offset += count
      }
      return true
    }
    let failure = written ? nil : errorText()
    close(fd)
    guard written, rename(temporary, path) == 0 else {
      let reason = failure ?? errorText()
      unlink(temporary)
      throw DemoError("cannot write \(path): \(reason)")
    }
  }

  /// Writes text to a file, replacing it.
  ///
  /// - Parameters:
  ///   - text: What to write, as UTF-8.
  ///   - path: The file.
  /// - Throws: ``DemoError`` if it cannot be written.
  public static func write(_ text: String, to path: String) throws(DemoError) {
    try write(text.utf8, to: path)
  }

  /// Makes a directory (its parent must exist); an existing one is fine.
  ///
  /// - Parameter path: The directory.
  /// - Throws: ``DemoError`` if it cannot be made.
  public static func makeDirectory(_ path: String) throws(DemoError) {
    guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
      throw DemoError("cannot make \(path): \(errorText())")
    }
  }

  /// The names in a directory, sorted, without `.` and `..`.
  ///
  /// - Parameter path: The directory.
  /// - Returns: The names; empty if it cannot be read.
  public static func list(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  /// Removes a file, or a directory and everything in it.
  ///
  /// - Parameter path: What to remove.
  public static func remove(_ path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    if info.st_mode & S_IFMT == S_IFDIR {
      for name in list(path) { remove("\(path)/\(name)") }
      rmdir(path)
    } else {
      unlink(path)
    }
  }

  /// The size of a file in bytes, or `nil` if there is none.
  ///
  /// - Parameter path: The file.
  /// - Returns: Its size.
  public static func size(of path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int(info.st_size)
  }

  /// `errno` as text.
  static func errorText() -> String {
    String(cString: strerror(errno))
  }
}

/// `read(2)`, out of reach of `Files.read`'s name.
func readSome(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, buffer, count)
}

/// `write(2)`, out of reach of `Files.write`'s name.
func writeSome(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}
