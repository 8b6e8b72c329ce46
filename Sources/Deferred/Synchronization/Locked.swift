/// State behind a ``Lock``.
///
/// The state is only ever reached through ``withLock(_:)``, under the lock, and is `Sendable`:
/// what goes in and comes out may cross threads.
package struct Locked<State: Sendable>: Sendable {
  private let storage: LockedStorage<State>

  /// Creates the lock around `state`.
  package init(_ state: consuming sending State) {
    storage = LockedStorage(state)
  }

  /// Runs `body` with the state, under the lock.
  @inline(__always)
  package func withLock<Result, Failure: Error>(
    _ body: (inout sending State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try storage.lock.withLock { () throws(Failure) -> Result in try body(&storage.state) }
  }
}

/// The lock and its state, in one object.
///
/// Safety: `@unchecked Sendable` because `state` is read and written only under `lock`
/// (``Locked/withLock(_:)``), and is `Sendable` itself. The lock is what keeps accesses to
/// `state` apart (taking it twice on one thread traps in debug builds), so the runtime's
/// exclusivity check, a call on every access, is off.
private final class LockedStorage<State: Sendable>: @unchecked Sendable {
  let lock = Lock()
  @exclusivity(unchecked) var state: State

  init(_ state: consuming State) {
    self.state = state
  }
}
