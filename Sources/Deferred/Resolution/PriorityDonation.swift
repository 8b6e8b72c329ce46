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
