import Deferred

#if canImport(Darwin)
  import Darwin
  import MachO
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs a program with `posix_spawn` and collects what it writes through pipes.
public enum ChildProcess {
  /// How a child ended, and what it wrote.
  public struct Result: Sendable, Hashable {
    /// Its exit status, or 128 plus the signal that ended it.
    public let status: Int32
    /// What it wrote on standard output.
    public let output: String
    /// What it wrote on standard error, if that was collected.
    public let errors: String
  }

  /// The running program's own executable, so that the demo can launch fresh copies of itself.
  public static var currentExecutable: String {
    var buffer = [CChar](repeating: 0, count: 4_096)
    #if canImport(Darwin)
      // dyld's record of the path the program was started from.
      var size = UInt32(buffer.count)
      guard _NSGetExecutablePath(&buffer, &size) == 0 else { return CommandLine.arguments[0] }
      let count = buffer.firstIndex(of: 0) ?? buffer.count
    #else
      let count = readlink("/proc/self/exe", &buffer, buffer.count)
    #endif
    guard count > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Runs `arguments[0]` with its arguments and waits for it to end.
  ///
  /// The child's environment is this process's, with `DEFERRED_SPAWN_NS` set to
  /// ``MonotonicClock``'s reading, in nanoseconds, just before `posix_spawn`: the child's launch
  /// report then counts from its spawn, the time before its `main` included.
  ///
  /// - Parameters:
  ///   - arguments: The program's path, then its arguments.
  ///   - collectErrors: Collect standard error too; otherwise the child shares this one's.
  /// - Returns: How it ended and what it wrote.
  /// - Throws: ``DemoError`` if it cannot be started.
  public static func run(_ arguments: [String], collectErrors: Bool = false) throws(DemoError)
    -> Result
  {
    precondition(!arguments.isEmpty, "no program to run")
    var output: [Int32] = [-1, -1]
    var errors: [Int32] = [-1, -1]
    guard makePipe(&output) else { throw DemoError("pipe: \(Files.errorText())") }
    if collectErrors && !makePipe(&errors) {
      close(output[0])
      close(output[1])
      throw DemoError("pipe: \(Files.errorText())")
    }
    // An opaque pointer that `posix_spawn_file_actions_init` allocates on Darwin; a struct
    // initialised in place on Linux.
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t?
    #else
      var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    if collectErrors { posix_spawn_file_actions_adddup2(&actions, errors[1], 2) }

    let argv = arguments.map { strdup($0) } + [nil]
    var environment: [UnsafeMutablePointer<CChar>?] = []
    var entry = environ
    while let variable = entry.pointee {
      if strncmp(variable, "DEFERRED_SPAWN_NS=", 18) != 0 { environment.append(strdup(variable)) }
      entry += 1
    }
    defer {
      for pointer in argv + environment { free(pointer) }
    }
    // The spawn time, as close to the spawn as it can be read.
    let spawnTime = strdup("DEFERRED_SPAWN_NS=\(MonotonicClock().now())")
    environment += [spawnTime, nil]
    var pid = pid_t()
    let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environment)
    close(output[1])
    if collectErrors { close(errors[1]) }
    guard spawned == 0 else {
      close(output[0])
      if collectErrors { close(errors[0]) }
      throw DemoError("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
    }
    let (standardOutput, standardError) = drain(output[0], collectErrors ? errors[0] : -1)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return Result(
      status: exitStatus, output: String(decoding: standardOutput, as: UTF8.self),
      errors: String(decoding: standardError, as: UTF8.self))
  }

  /// Makes a pipe whose ends close when a child executes: the child gets only the copies
  /// `posix_spawn` puts on its standard output and error.
  private static func makePipe(_ ends: inout [Int32]) -> Bool {
    guard pipe(&ends) == 0 else { return false }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return true
  }

  /// Reads both pipes until the child closes them, with `poll`, so that neither fills up.
  private static func drain(_ first: Int32, _ second: Int32) -> ([UInt8], [UInt8]) {
    var collected: [[UInt8]] = [[], []]
    var descriptors = [
      pollfd(fd: first, events: Int16(POLLIN), revents: 0),
      pollfd(fd: second, events: Int16(POLLIN), revents: 0),
    ]
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while descriptors.contains(where: { $0.fd >= 0 }) {
      let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { break }
      for index in descriptors.indices where descriptors[index].fd >= 0 {
        guard descriptors[index].revents != 0 else { continue }
        let count = buffer.withUnsafeMutableBytes {
          readSome(descriptors[index].fd, $0.baseAddress!, $0.count)
        }
        if count < 0 && errno == EINTR { continue }
        if count > 0 {
          collected[index] += buffer[0..<count]
        } else {
          close(descriptors[index].fd)
          descriptors[index].fd = -1
        }
      }
    }
    return (collected[0], collected[1])
  }
}
