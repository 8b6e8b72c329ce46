#if canImport(Darwin)
  import Darwin
#endif

/// A waiting thread's priority, lent to the thread whose build it waits for: otherwise the
/// main thread waiting for a `.utility` build would run at `.utility` speed, the inversion a
/// launch library exists to prevent.
///
/// A build's latch is a `DispatchGroup`, whose wait knows no owner and passes no priority on
/// (unlike `os_unfair_lock`, `dispatch_sync` or `DispatchWorkItem.wait()`). So the waiter
/// lends its own class (`qos_class_self()`) with `pthread_override_qos_class_start_np`, as
/// Foundation's `Operation.waitUntilFinished()` does, until it stops waiting. It only raises,
/// and is not passed along a chain. Linux has no such call: there, waiting is all there is.
///
/// A waiter lends to the builder's *thread*, which the waiter does not keep alive: a build
/// can end, and its Dispatch worker thread exit, between the waiter's look at the build and
/// its loan. So a thread's handle is a ``Recipient``, whose loans are begun under its lock
/// while the thread lives; the thread, as it ends (its build context's destructor), marks it
/// ended under the same lock, and every later loan is refused: no loan ever names a thread
/// that has ended. A loan begun keeps what the kernel needs (libpthread's override holds a
/// reference to the thread's port), so ending it after the thread has gone is safe.
enum PriorityDonation {
  #if canImport(Darwin)
    /// A loan under way.
    typealias Loan = pthread_override_t?

    /// A thread's handle, while the thread lives.
    ///
    /// Safety: `@unchecked Sendable` as a `pthread_t` is an address; it is read only under
    /// the recipient's lock, and only while the thread has not ended.
    struct Thread: @unchecked Sendable {
      let handle: pthread_t
    }
  #else
    /// Nothing is lent: a loan is only the permission to lend, which a test can see.
    struct Nothing: Sendable {}
    typealias Loan = Nothing?
    typealias Thread = Bool
  #endif

  /// A thread that waiters may lend their priority to, while it lives.
  final class Recipient: Sendable {
    private let thread: Locked<Thread?>

    /// The calling thread.
    init() {
      #if canImport(Darwin)
        thread = Locked(Thread(handle: pthread_self()))
      #else
        thread = Locked(true)
      #endif
    }

    /// Lends the calling thread's quality of service to the thread until ``end(_:)``: begun
    /// under the lock, so the thread has not ended; `nil` once it has.
    func lend() -> Loan {
      thread.withLock { thread in
        guard let thread else { return nil }
        #if canImport(Darwin)
          return pthread_override_qos_class_start_np(thread.handle, qos_class_self(), 0)
        #else
          _ = thread
          return Nothing()
        #endif
      }
    }

    /// Notes that the thread ends: no loan is begun to it any more. Called by the thread
    /// itself, as its build context is released.
    func threadEnded() {
      thread.withLock { $0 = nil }
    }

    /// Whether the thread still runs.
    var isAlive: Bool { thread.withLock { $0 != nil } }
  }

  /// The calling thread, as a recipient.
  static func currentThread() -> Recipient { Recipient() }

  /// Lends the calling thread's quality of service to `recipient`, if it still runs, until
  /// ``end(_:)``.
  static func begin(to recipient: Recipient?) -> Loan {
    recipient?.lend() ?? nil
  }

  /// Ends a loan begun with ``begin(to:)``.
  static func end(_ loan: Loan) {
    #if canImport(Darwin)
      guard let loan else { return }
      _ = pthread_override_qos_class_end_np(loan)
    #endif
  }
}
