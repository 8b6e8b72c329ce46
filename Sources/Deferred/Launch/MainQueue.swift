extension Container {
  /// Whether the caller runs on the main actor's queue: the notion of "main" the container's
  /// waits, hops and records use, for the package's other products (the system calls that must
  /// be made on the main thread).
  ///
  /// On Apple platforms, the main thread; elsewhere, whichever thread drains the main queue
  /// (on Linux once `dispatchMain()` has ended the main thread, as under `swift test`).
  package static var isOnMainQueue: Bool { MainThread.isCurrent }
}
