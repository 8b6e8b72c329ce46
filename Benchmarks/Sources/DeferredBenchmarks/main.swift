#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

switch Command.parse(Array(CommandLine.arguments.dropFirst())) {
case .benchmark(let mode, let json, let compileTime, let only):
  exit(Runner.run(mode, json: json, compileTime: compileTime, only: only))
case .help:
  print(Command.usage)
case .child(let name, let arguments):
  guard let status = ChildCommand.run(name, arguments) else {
    logProgress(Command.usage)
    exit(64)
  }
  exit(status)
case nil:
  logProgress(Command.usage)
  exit(64)
}
