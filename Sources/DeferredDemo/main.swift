import DeferredDemoKit

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// Top-level code runs on the main actor: launches run on the main thread, and the main queue
// (the app's user interface) is served while they await.
exit(await DemoCommand.run(Array(CommandLine.arguments.dropFirst())))
