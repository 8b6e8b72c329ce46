#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// State behind a ``RawMutex``, both in one allocation.
///
/// Safety: the state is only ever reached through ``withLock(_:)``, under the mutex; that is
/// what makes the `@unchecked Sendable` sound (Docs/Design.md, "Memory safety").
package struct Locked<State>: @unchecked Sendable {
  private let storage: LockStorage<State>

  /// Creates the lock around `state`.
  package init(_ state: State) {
    storage = LockStorage.make(state)
  }

  /// Runs `body` with the state, under the lock.
  @inline(__always)
  package func withLock<Result, Failure: Error>(
    _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try storage.withUnsafeMutablePointers { (state, mutex) throws(Failure) -> Result in
      try RawMutex(mutex).withLock { () throws(Failure) -> Result in try body(&state.pointee) }
    }
  }
}

/// The state, with the mutex as its one tail-allocated element.
private final class LockStorage<State>: ManagedBuffer<State, pthread_mutex_t> {
  static func make(_ state: State) -> LockStorage<State> {
    let buffer = create(minimumCapacity: 1) { _ in state }
    buffer.withUnsafeMutablePointerToElements { RawMutex.initialize($0) }
    return unsafeDowncast(buffer, to: LockStorage<State>.self)
  }

  // ManagedBuffer destroys the header (the state) itself; the element is ours to destroy.
  deinit {
    withUnsafeMutablePointerToElements { RawMutex.destroy($0) }
  }
}
