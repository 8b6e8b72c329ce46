import CDeferredSync

/// The library's lock: `os_unfair_lock` on Apple platforms, which lends a waiting thread's
/// priority to the owner (the main thread waiting on a `.utility` owner is the inversion a
/// launch library exists to prevent); a futex word on Linux, as Swift's own `Mutex` is there,
/// taken and released inline (`CDeferredSync`). Releasing a lock that is not held stops the
/// process.
///
/// No user code ever runs while one is held.
final class Lock: @unchecked Sendable {
  // Safety: the C lock is made here and freed in deinit; it is only ever passed to the C
  // target's lock and unlock.
  private let lock = cds_lock_create()

  deinit {
    cds_lock_destroy(lock)
  }

  /// Runs `body` while holding the lock.
  @inline(__always)
  func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
    -> Result
  {
    cds_lock_lock(lock)
    defer { cds_lock_unlock(lock) }
    return try body()
  }
}

/// The locks of every node: one of a fixed pool, picked by the node's address.
///
/// A lock of its own would cost each node an allocation; nodes share these instead. They are
/// held for a few field updates, never around user code or another node's lock, so sharing one
/// costs nothing but a rare brief wait.
enum NodeLocks {
  /// Runs `body` holding `node`'s lock.
  @inline(__always)
  static func withLock<Result, Failure: Error>(
    for node: AnyObject, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    // Objects are 16-byte aligned: the bits above those pick the lock.
    let index = UInt32(truncatingIfNeeded: UInt(bitPattern: ObjectIdentifier(node)) >> 4)
    cds_pool_lock(index)
    defer { cds_pool_unlock(index) }
    return try body()
  }
}
