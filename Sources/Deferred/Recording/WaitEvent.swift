/// A thread or task about to wait for a build of a service that another one is running.
///
/// A container tells the observer given to ``Container/onWait(_:)`` just before the wait
/// begins, on the waiting thread: tests use it to let a build finish only once a second thread
/// is really waiting for it, with no sleeping and no polling.
///
/// ```swift
/// let waiting = DispatchSemaphore(value: 0)
/// container.onWait { event in
///   if event.service == "Storage" { waiting.signal() }
/// }
/// ```
public struct WaitEvent: Sendable, Hashable {
  /// The service waited for, as its key prints (`Storage`, `Storage["cache"]`).
  public var service: String
  /// The waiting thread's name (`main`, a queue's label), or `task` for async code.
  public var thread: String
  /// The service the waiter was building when it needed this one, if any.
  public var waitingService: String?

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - service: The service waited for.
  ///   - thread: The waiting thread.
  ///   - waitingService: What the waiter was building.
  public init(service: String, thread: String, waitingService: String? = nil) {
    self.service = service
    self.thread = thread
    self.waitingService = waitingService
  }
}

extension Container {
  /// Calls `observer` each time a thread or task is about to wait for another's build of one
  /// of this container's services; `nil` stops it.
  ///
  /// The observer runs on the waiting thread just before it blocks (or the task suspends),
  /// under no lock of the container. Keep it short: the waiter waits for it too.
  ///
  /// - Parameter observer: What to call, or `nil`.
  public func onWait(_ observer: (@Sendable (WaitEvent) -> Void)?) {
    waitObserver.withLock { $0 = observer }
  }

  /// Tells the wait observer, if there is one, of the event `event` makes.
  func tellWaitObserver(_ event: @autoclosure () -> WaitEvent) {
    guard let observer = waitObserver.withLock({ $0 }) else { return }
    observer(event())
  }
}
