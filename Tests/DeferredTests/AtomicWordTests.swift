import Dispatch
import Testing

@testable import Deferred

/// The atomic words and the references built on them.
@Suite struct AtomicWordTests {
  final class Object: Sendable {
    let label: String
    init(_ label: String) { self.label = label }
  }

  @Test func aWordCountsEveryAddFromManyThreads() {
    let word = AtomicWord()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<10_000 { word.addRelaxed(1) }
    }
    #expect(word.loadAcquire() == 80_000)
  }

  @Test func bitsAreSetAndTheOldValueReturned() {
    let word = AtomicWord(0b0101)
    #expect(word.setBits(0b0010) == 0b0101)
    #expect(word.loadRelaxed() == 0b0111)
    #expect(word.fetchAddRelaxed(1) == 0b0111)
    #expect(word.compareExchange(expected: 0b1000, desired: 9) == (true, 0b1000))
    #expect(word.compareExchange(expected: 0b1000, desired: 1) == (false, 9))
    word.storeRelease(3)
    #expect(word.loadAcquire() == 3)
  }

  @Test func aReferenceIsSetOnceAndKeepsItsObjectAliveUntilItGoes() {
    weak var first: Object?
    weak var second: Object?
    do {
      let reference = AtomicReference<Object>()
      let isSet = reference.isSet
      #expect(reference.load() == nil)
      #expect(!isSet)
      do {
        let made = Object("first")
        first = made
        #expect(reference.setIfUnset(made) == nil)
        let other = Object("second")
        second = other
        #expect(reference.setIfUnset(other)?.label == "first")
      }
      #expect(second == nil)
      #expect(reference.load()?.label == "first")
      #expect(first != nil)
    }
    #expect(first == nil)
  }

  @Test func manyThreadsSettingAReferenceAgreeOnOneObject() {
    let reference = AtomicReference<Object>()
    let seen = Locked<Set<ObjectIdentifier>>([])
    DispatchQueue.concurrentPerform(iterations: 8) { index in
      let mine = Object("\(index)")
      let kept = reference.setIfUnset(mine) ?? mine
      seen.withLock { _ = $0.insert(ObjectIdentifier(kept)) }
    }
    #expect(seen.withLock { $0.count } == 1)
    #expect(reference.load().map(ObjectIdentifier.init) == seen.withLock { $0.first })
  }

  /// A replaced object stays alive as long as the reference, for a reader that loaded its
  /// address just before; the reference hands nothing back to keep.
  @Test func aPublishedReferenceKeepsEveryObjectItHeldUntilItGoes() {
    weak var old: Object?
    weak var new: Object?
    do {
      let reference = PublishedReference<Object>()
      #expect(reference.load() == nil)
      do {
        let made = Object("old")
        old = made
        reference.store(made)
      }
      do {
        let made = Object("new")
        new = made
        reference.store(made)
      }
      #expect(reference.load()?.label == "new")
      #expect(old != nil)
      reference.store(nil)
      #expect(reference.load() == nil)
      #expect(old != nil && new != nil)
    }
    #expect(old == nil && new == nil)
  }

  /// Readers racing replacements always find a live object: each one set, or a later one.
  @Test func readersOfAPublishedReferenceFindLiveObjectsWhileItIsReplaced() {
    let reference = PublishedReference<Object>()
    reference.store(Object("0"))
    DispatchQueue.concurrentPerform(iterations: 4) { index in
      for round in 1...2_000 {
        if index == 0 {
          reference.store(Object("\(round)"))
        } else {
          #expect(reference.load() != nil)
        }
      }
    }
    #expect(reference.load()?.label == "2000")
  }
}
