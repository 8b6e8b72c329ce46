#if canImport(Darwin)
  import Darwin
#endif

/// A waiting thread's priority, lent to the thread whose build it waits for.
///
/// A thread that blocks on another's build would otherwise wait at the builder's priority:
/// the main thread waiting for a `.utility` build runs at `.utility` speed, the very inversion
/// a launch library exists to prevent. Dispatch groups donate nothing, so on Apple platforms
/// the waiter raises the builder's thread to its own quality of service for as long as it
/// waits (`pthread_override_qos_class_start_np`, what Dispatch itself uses for this; it only
/// ever raises). Elsewhere there is no such call, and waiting is all there is.
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
