import Dispatch
import Testing

@testable import Deferred

/// The library's lock (`os_unfair_lock` on Apple platforms, a futex word on Linux) and the
/// pool of node locks: one thread at a time inside, and a waiter let in once the owner leaves.
@Suite struct LockTests {
  /// A count that only the lock keeps right: increments are plain reads and writes.
  final class Count: @unchecked Sendable {
    var value = 0
  }

  @Test func aLockKeepsEveryIncrementOfManyThreads() {
    let lock = Lock()
    let count = Count()
    // More threads than cores: threads find the lock held, spin, sleep and are woken.
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<20_000 { lock.withLock { count.value += 1 } }
    }
    #expect(count.value == 160_000)
  }

  @Test func aNodeLockKeepsEveryIncrementOfManyThreads() {
    let node = Count()
    let count = Count()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<20_000 { NodeLocks.withLock(for: node) { count.value += 1 } }
    }
    #expect(count.value == 160_000)
  }

  @Test func aWaiterGetsInOnlyOnceTheOwnerLeaves() {
    let lock = Lock()
    let entered = Locked(false)
    let starting = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    lock.withLock {
      DispatchQueue.global().async {
        starting.signal()
        lock.withLock { entered.withLock { $0 = true } }
        done.signal()
      }
      starting.wait()
      // The other thread is taking the lock or waiting for it: it cannot be inside.
      for _ in 0..<100_000 {
        #expect(!entered.withLock { $0 })
        if entered.withLock({ $0 }) { break }
      }
    }
    done.wait()
    #expect(entered.withLock { $0 })
  }

  @Test func aLockThrowsThroughAndIsFreeAfter() {
    struct Failure: Error {}
    let lock = Lock()
    #expect(throws: Failure.self) { try lock.withLock { () throws(Failure) in throw Failure() } }
    #expect(lock.withLock { 42 } == 42)
  }
}
