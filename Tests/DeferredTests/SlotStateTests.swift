import Dispatch
import Synchronization
import Testing

@testable import Deferred

/// The slot's transitions, one state at a time, without threads.
@Suite struct SlotStateTests {
  let builder = BuildContext(thread: ThreadInfo(isMain: false, name: "builder"))
  let other = BuildContext(thread: ThreadInfo(isMain: false, name: "other"))

  static func work(_ log: Locked<[String]>, _ label: String) -> PendingWork {
    PendingWork(queue: .main) { _, _ in log.withLock { $0.append(label) } }
  }

  @Test func idleIsClaimedThenBuiltOnce() {
    var slot = SlotState()
    #expect(slot.isIdle && !slot.isPublished && slot.builder == nil)
    guard case .claimed(attempt: 1, generation: 0) = slot.claim(by: builder) else {
      Issue.record("idle: the first claim builds")
      return
    }
    #expect(slot.builder === builder)
    guard case .ownedBySelf = slot.claim(by: builder) else {
      Issue.record("building: the builder's own claim is a cycle")
      return
    }
    guard case .busy(let latch) = slot.claim(by: other),
      case .busy(let same) = slot.claim(by: other)
    else {
      Issue.record("building: another context waits")
      return
    }
    #expect(latch === same)  // one latch per build, made by the first waiter
    #expect(latch.owner === builder && latch.attempt == 1)
    let ending = slot.built(attempt: 1)
    // The latch makes a group for blocked threads only when one blocks: none has here.
    #expect(ending.wake == nil && ending.deliver.isEmpty)
    #expect(slot.isPublished && slot.builder == nil)
    guard case .built = slot.claim(by: other) else {
      Issue.record("ready: a claim finds it built")
      return
    }
  }

  @Test func aBuildWithoutWaitersWakesNobody() {
    var slot = SlotState()
    _ = slot.claim(by: builder)
    #expect(slot.built(attempt: 1).wake == nil)
  }

  @Test func aFailedBuildGoesBackToIdleAndCountsTheAttempt() {
    var slot = SlotState()
    _ = slot.claim(by: builder)
    _ = slot.failed(attempt: 1, DeferredError(.factoryFailed, key: key, chain: [key]))
    #expect(slot.isIdle && slot.builder == nil)
    guard case .claimed(attempt: 2, generation: 0) = slot.claim(by: other) else {
      Issue.record("after a failure the next claim is the second attempt")
      return
    }
  }

  @Test func workIsQueuedUntilBuiltThenDeliveredInOrderWhileLaterWorkWaits() {
    let log = Locked<[String]>([])
    var slot = SlotState()
    #expect(isQueued(slot.receive([Self.work(log, "a")])))
    _ = slot.claim(by: builder)
    #expect(isQueued(slot.receive([Self.work(log, "b")])))
    _ = slot.failed(attempt: 1, DeferredError(.factoryFailed, key: key, chain: [key]))
    #expect(isQueued(slot.receive([Self.work(log, "c")])))  // held through the failure
    _ = slot.claim(by: builder)
    let ending = slot.built(attempt: 2)
    #expect(ending.deliver.count == 3)
    // While the builder hands a, b, c over, d joins the queue behind them.
    #expect(isQueued(slot.receive([Self.work(log, "d")])))
    #expect(slot.delivered().count == 1)
    #expect(slot.delivered().isEmpty)
    guard case .now = slot.receive([Self.work(log, "e")]) else {
      Issue.record("ready, nothing being handed over: work goes at once")
      return
    }
  }

  @Test func anIdleSlotRetiresAndHandsItsWorkToTheReplacement() throws {
    let container = Container()
    try container.register(Storage.self) { Storage() }
    let replacement = try #require(container.lookup(key))
    let log = Locked<[String]>([])
    var slot = SlotState()
    _ = slot.receive([Self.work(log, "a")])
    #expect(slot.retire(replacedBy: replacement)?.count == 1)
    guard case .replaced(let found) = slot.claim(by: builder), found === replacement,
      case .forward(let forwarded) = slot.receive([Self.work(log, "b")]),
      forwarded === replacement
    else {
      Issue.record("retired: claims build the replacement, work goes to it")
      return
    }
    #expect(slot.retire(replacedBy: replacement) == nil)
  }

  @Test func aSlotBuildingOrBuiltIsNotRetired() throws {
    let container = Container()
    try container.register(Storage.self) { Storage() }
    let replacement = try #require(container.lookup(key))
    var slot = SlotState()
    _ = slot.claim(by: builder)
    #expect(slot.retire(replacedBy: replacement) == nil)
    _ = slot.built(attempt: 1)
    #expect(slot.retire(replacedBy: replacement) == nil)
    #expect(slot.isPublished)
  }

  @Test func observedDependenciesAreKeptOnce() {
    var slot = SlotState()
    slot.observe(key)
    slot.observe(key)
    #expect(slot.observed == [key])
  }

  /// The rarely used parts (queued work, observed dependencies, the generation, stale builds)
  /// live in a box made on first use: a copy of the state is still a value of its own.
  @Test func aCopyOfTheStateIsIndependentOfItsOriginal() {
    var slot = SlotState()
    slot.observe(key)
    _ = slot.claim(by: builder)
    _ = slot.reset()
    var copy = slot
    copy.observe(ServiceKey<Storage>(name: "other").erased)
    _ = copy.failed(attempt: 1, DeferredError(.factoryFailed, key: key, chain: [key]))
    _ = copy.reset()
    #expect(slot.observed == [key] && slot.generation == 1)
    #expect(copy.observed.count == 2 && copy.generation == 1)
    // The stale build is still the original's: it ends apart from its idle state.
    let ending = slot.built(attempt: 1)
    #expect(slot.isIdle && ending.deliver.isEmpty)
    guard case .claimed(attempt: 2, generation: 1) = copy.claim(by: other) else {
      Issue.record("the copy's stale build ended in the copy only")
      return
    }
    #expect(slot.claim(by: other).isClaimed(generation: 1))
  }

  private var key: AnyServiceKey { ServiceKey<Storage>().erased }

  private func isQueued(_ delivery: SlotState.Delivery) -> Bool {
    if case .queued = delivery { return true }
    return false
  }
}

extension SlotState.Claim {
  fileprivate func isClaimed(generation expected: Int) -> Bool {
    if case .claimed(_, let generation) = self { return generation == expected }
    return false
  }
}
