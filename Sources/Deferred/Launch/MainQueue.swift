extension Container {
  /// Whether the caller runs on the main actor's queue, as the container's waits, hops and
  /// records mean "main": on Apple platforms the main thread; elsewhere whichever thread
  /// drains the main queue.
  package static var isOnMainQueue: Bool { MainThread.isCurrent }
}
