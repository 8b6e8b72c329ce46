#if canImport(Darwin)
  import Darwin
#endif

/// A waiting thread's priority, lent to the thread whose build it waits for, so the main thread
/// never waits at `.utility` speed.
///
/// A `DispatchGroup` wait passes no priority on, so the waiter lends its class with
/// `pthread_override_qos_class_start_np` (as `Operation.waitUntilFinished()` does) until it
/// stops waiting. Linux has no such call.
///
/// The builder's thread may exit between the waiter's look and its loan, so loans to a
/// ``Recipient`` begin under its lock, which the thread takes as it ends to refuse later ones.
/// A loan begun holds the thread's port, so ending it after the thread has gone is safe.
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

    /// Lends the calling thread's quality of service to the thread until ``end(_:)``; `nil`
    /// once the thread has ended.
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

    /// Notes that the thread ends, as its build context is released: no loan begins after.
    func threadEnded() {
      thread.withLock { $0 = nil }
    }

    /// Whether the thread still runs.
    var isAlive: Bool { thread.withLock { $0 != nil } }
  }

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
