import Testing

@testable import Deferred

/// The held states of the slot (weak and named scopes), one transition at a time, without
/// threads.
extension SlotStateTests {
  private func box(_ number: Int) -> AnyObject {
    objectOfValue(Numbered(number))
  }

  @Test func aHeldValueIsFoundThenDroppedByAResetAsANewGeneration() {
    var slot = SlotState()
    _ = slot.claim(by: builder)
    let first = box(1)
    _ = slot.built(attempt: 1, storing: .value(first), value: .value(first))
    #expect(slot.isHeld && !slot.isPublished)
    guard case .built(.value(let found)?) = slot.claim(by: other), found === first else {
      Issue.record("held: a claim finds the box")
      return
    }
    guard case .value(let dropped)? = slot.reset(), dropped === first else {
      Issue.record("held: a reset drops the box and returns it")
      return
    }
    #expect(slot.isIdle && slot.generation == 1)
    guard case .claimed(attempt: 2, generation: 1) = slot.claim(by: other) else {
      Issue.record("after a reset: a new build, of the next generation")
      return
    }
  }

  @Test func aResetDuringABuildMakesItStaleAndItsEndLeavesTheStateAlone() {
    var slot = SlotState()
    _ = slot.claim(by: builder)
    guard case .busy(let latch) = slot.claim(by: other) else {
      Issue.record("building: another context waits")
      return
    }
    #expect(slot.reset() == nil)
    // After the reset: a new build, not the stale one.
    guard case .claimed(attempt: 2, generation: 1) = slot.claim(by: other) else {
      Issue.record("after a reset: the next claim builds the next generation")
      return
    }
    let stale = box(1)
    let ending = slot.built(attempt: 1, storing: .value(stale), value: .value(stale))
    // The stale value goes to its builder and to the waiter on its latch, not into the state.
    guard case .value(let handed)? = ending.value, handed === stale else {
      Issue.record("a stale build hands its own value back")
      return
    }
    #expect(slot.builder === other)
    let fresh = box(2)
    _ = slot.built(attempt: 2, storing: .value(fresh), value: .value(fresh))
    guard case .built(.value(let found)?) = slot.claim(by: builder), found === fresh else {
      Issue.record("the new generation's value is the one held")
      return
    }
    _ = latch
  }

  @Test func aWeakValueWhoseObjectIsGoneIsBuiltAnew() {
    var slot = SlotState()
    _ = slot.claim(by: builder)
    do {
      let object = Numbered(1)
      _ = slot.built(attempt: 1, storing: .weak(WeakObject(object: object)), value: .object(object))
      guard case .built(.object(let found)?) = slot.claim(by: other), found === object else {
        Issue.record("weak, held elsewhere: a claim finds the object")
        return
      }
    }
    guard case .claimed(attempt: 2, generation: 1) = slot.claim(by: other) else {
      Issue.record("weak, let go: the next claim builds it anew")
      return
    }
  }
}
