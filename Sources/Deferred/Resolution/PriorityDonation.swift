#if canImport(Darwin)
  import Darwin
#endif

/// A waiting thread's priority, lent to the thread whose build it waits for.
///
/// A thread that blocks on another's build would otherwise wait at the builder's priority:
/// the main thread waiting for a `.utility` build runs at `.utility` speed, the very inversion
/// a launch library exists to prevent.
///
/// What Apple platforms do on their own: a wait that knows whom it waits for passes the
/// waiter's priority on. `os_unfair_lock` and a `dispatch_sync` onto a queue another thread
/// is running raise the owner through the kernel (turnstiles); `DispatchWorkItem.wait()` on a
/// work item under way raises the thread running it, through libpthread's private
/// `_pthread_qos_override_start_direct`. A wait that knows no owner passes nothing on: a
/// `DispatchGroup` or `DispatchSemaphore` wait, which is what a build's latch is.
///
/// So the waiter lends its priority itself, with `pthread_override_qos_class_start_np`, the
/// public call for this (Foundation's `Operation.waitUntilFinished()` uses it): the builder's
/// thread runs at least at the waiter's quality of service (`qos_class_self()`, the class it
/// asked for, not one lent to it) until the waiter stops waiting. It only ever raises. It is
/// not passed along a chain: a builder that was lent `.userInitiated` and waits in turn for a
/// third thread lends that one its own class. Elsewhere there is no such call, and waiting is
/// all there is.
///
/// The Apple path is not compiled on Linux; it is the only code that differs.
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
