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
enum PriorityDonation {
  #if canImport(Darwin)
    /// The builder's thread, as a handle its waiters can lend their priority to; `nil` for a
    /// context with no thread of its own (an async resolve, or the main actor's, which
    /// already runs at the highest priority).
    typealias Recipient = pthread_t?

    /// The calling thread, as a recipient.
    static func currentThread() -> Recipient { pthread_self() }

    /// A loan under way.
    typealias Loan = pthread_override_t?

    /// Lends the calling thread's quality of service to `recipient` until ``end(_:)``.
    static func begin(to recipient: Recipient) -> Loan {
      guard let recipient else { return nil }
      return pthread_override_qos_class_start_np(recipient, qos_class_self(), 0)
    }

    /// Ends a loan begun with ``begin(to:)``.
    static func end(_ loan: Loan) {
      guard let loan else { return }
      _ = pthread_override_qos_class_end_np(loan)
    }
  #else
    /// Nothing to lend to, nor to lend.
    struct Nothing {}
    typealias Recipient = Nothing?
    typealias Loan = Nothing?

    static func currentThread() -> Recipient { nil }

    static func begin(to recipient: Recipient) -> Loan { nil }

    static func end(_ loan: Loan) {}
  #endif
}
