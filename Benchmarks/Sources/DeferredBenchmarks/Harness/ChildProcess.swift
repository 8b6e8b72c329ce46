#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// This benchmark binary run again in a fresh process, with a hidden subcommand.
///
/// Used where a process must start cold, or may crash.
struct ChildProcess {
  /// How the child ended.
  enum Termination: Equatable {
    case exited(Int32)
    case signaled(Int32)
  }

  let termination: Termination
  /// What the child wrote on its standard output.
  let output: String

  /// Runs the benchmark binary with `arguments` and waits for it. The child's standard error
  /// goes to ours unless `quiet`; Swift's crash backtracer is off in the child, so that a crash
  /// ends it at once.
  ///
  /// With a `launcher` (a program's absolute path and its arguments), runs that program with
  /// the benchmark binary and `arguments` after its own: a profiler, say. `environment` is
  /// added to the child's.
  static func run(
    _ arguments: [String], quiet: Bool = false, under launcher: [String] = [],
    environment: [String] = []
  ) -> ChildProcess {
    let executable = launcher.first ?? executablePath()
    var pipeEnds: [Int32] = [0, 0]
    precondition(pipe(&pipeEnds) == 0, "pipe failed")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    if quiet {
      posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
    }
    let command = launcher.isEmpty ? [executable] : launcher + [executablePath()]
    let argv = (command + arguments).map { strdup($0) } + [nil]
    let envp = (childEnvironment() + environment).map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    close(pipeEnds[1])
    precondition(spawned == 0, "posix_spawn \(executable) failed: \(spawned)")
    let output = readAll(pipeEnds[0])
    close(pipeEnds[0])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7f
    let termination: Termination =
      signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    return ChildProcess(termination: termination, output: output)
  }

  private static func readAll(_ descriptor: Int32) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        bytes += buffer[0..<count]
      } else if count == 0 || errno != EINTR {
        break
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Our environment, with Swift's backtracer turned off.
  private static func childEnvironment() -> [String] {
    #if canImport(Darwin)
      var entry = _NSGetEnviron().pointee!
    #else
      var entry = environ
    #endif
    var result: [String] = []
    while let variable = entry.pointee.map({ String(cString: $0) }) {
      if !variable.hasPrefix("SWIFT_BACKTRACE=") { result.append(variable) }
      entry += 1
    }
    return result + ["SWIFT_BACKTRACE=enable=no"]
  }

  /// The absolute path of `program` in one of the folders of `PATH`, if it is there.
  static func find(_ program: String) -> String? {
    guard let path = getenv("PATH").map({ String(cString: $0) }) else { return nil }
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/\(program)"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  /// The path of the running benchmark binary.
  private static func executablePath() -> String {
    #if canImport(Darwin)
      var size: UInt32 = 4096
      var buffer = [CChar](repeating: 0, count: Int(size))
      precondition(_NSGetExecutablePath(&buffer, &size) == 0, "cannot find the executable")
      return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    #else
      var buffer = [CChar](repeating: 0, count: 4096)
      let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      precondition(count > 0, "cannot find the executable")
      return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #endif
  }
}

extension ChildProcess.Termination: CustomStringConvertible {
  var description: String {
    switch self {
    case .exited(let status):
      return "exited with status \(status)"
    case .signaled(let signal):
      let meaning: String
      switch signal {
      case SIGSEGV: meaning = "SIGSEGV: stack overflow or bad memory access"
      case SIGBUS: meaning = "SIGBUS: stack overflow or bad memory access"
      case SIGILL, SIGTRAP: meaning = "a trap: fatalError or a failed precondition"
      case SIGABRT: meaning = "SIGABRT: aborted"
      default: meaning = "signal \(signal)"
      }
      return "killed by signal \(signal) (\(meaning))"
    }
  }
}
