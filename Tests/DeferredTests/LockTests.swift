import Dispatch
import Testing

@testable import Deferred

/// The library's locks (`Locked`, a node's `NodeLock`): one thread at a time inside, a waiter
/// let in once the owner leaves, and in debug builds a trap for a thread that takes a node lock
/// while it holds one.
@Suite struct LockTests {
  /// A count that only a node lock keeps right: increments are plain reads and writes.
  final class Count: @unchecked Sendable {
    let lock = NodeLock()
    var value = 0
  }

  @Test func lockedStateKeepsEveryIncrementOfManyThreads() {
    let count = Locked(0)
    // More threads than cores: threads find the lock held and wait.
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<20_000 { count.withLock { $0 += 1 } }
    }
    #expect(count.withLock { $0 } == 160_000)
  }

  @Test func aNodeLockKeepsEveryIncrementOfManyThreads() {
    let count = Count()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<20_000 { count.lock.withLock { count.value += 1 } }
    }
    #expect(count.value == 160_000)
  }

  @Test func aWaiterGetsInOnlyOnceTheOwnerLeaves() {
    let lock = Locked(false)
    let entered = Locked(false)
    let starting = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    lock.withLock { _ in
      DispatchQueue.global().async {
        starting.signal()
        lock.withLock { _ in entered.withLock { $0 = true } }
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
    let lock = Locked(0)
    #expect(throws: Failure.self) {
      try lock.withLock { (_: inout Int) throws(Failure) in throw Failure() }
    }
    #expect(lock.withLock { _ in 42 } == 42)
    // A node's lock takes no throwing body (one would not be inlined): it is free after a pass.
    let node = Count()
    node.lock.withLock {}
    #expect(!NodeLock.isHeldByCurrentThread)
  }

  /// What the debug check that traps on a nested node lock reads: whether this thread holds
  /// one, true only inside a node lock, and on the thread that holds it.
  @Test func aThreadThatHoldsANodeLockIsKnownToHoldOne() throws {
    #if DEBUG
      let node = Count()
      #expect(!NodeLock.isHeldByCurrentThread)
      let (inside, elsewhere) = node.lock.withLock {
        let other = Locked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
          other.withLock { $0 = NodeLock.isHeldByCurrentThread }
          done.signal()
        }
        done.wait()
        return (NodeLock.isHeldByCurrentThread, other.withLock { $0 })
      }
      #expect(inside)
      #expect(elsewhere == false)
      #expect(!NodeLock.isHeldByCurrentThread)
      // A service whose build does everything a build does under its node's lock ends with
      // none held.
      let container = Container()
      try container.register(Count.self) { _ in Count() }
      _ = try container.resolve(Count.self)
      #expect(!NodeLock.isHeldByCurrentThread)
    #else
      #expect(!NodeLock.isHeldByCurrentThread)
    #endif
  }

  #if DEBUG
    /// The trap itself, in a process of its own: a thread that holds a node lock and takes
    /// another stops.
    @Test func takingANodeLockWhileHoldingOneStopsTheProcess() async {
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        let outer = Count()
        let inner = Count()
        outer.lock.withLock { inner.lock.withLock { inner.value += 1 } }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("a thread took a node's lock while it held one"))
    }
  #endif
}
