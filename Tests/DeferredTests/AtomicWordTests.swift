import Dispatch
import Testing

@testable import Deferred

/// The atomic words and references the core keeps in the C target's memory.
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

  @Test func bitsAreSetAndClearedAndTheOldValueReturned() {
    let word = AtomicWord(0b0101)
    #expect(word.setBits(0b0010) == 0b0101)
    #expect(word.clearBits(0b0100) == 0b0111)
    #expect(word.loadRelaxed() == 0b0011)
    #expect(word.compareExchange(expected: 0b0011, desired: 9) == (true, 0b0011))
    #expect(word.compareExchange(expected: 0b0011, desired: 1) == (false, 9))
    word.raise(to: 4)
    #expect(word.loadRelaxed() == 9)
    word.raise(to: 12)
    #expect(word.loadRelaxed() == 12)
  }

  @Test func wordsGivenBackAreMadeAgainAsZero() {
    for round in 0..<3 {
      var words: [UInt64] = []
      for index in 0..<5_000 {
        let word = AtomicWord()
        #expect(word.loadRelaxed() == 0, "round \(round), word \(index)")
        word.storeRelaxed(UInt64(index) + 1)
        words.append(word.loadRelaxed())
      }
      #expect(words.last == 5_000)
    }
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

  @Test func anExchangeHandsBackTheObjectItReplaces() {
    weak var old: Object?
    let reference = AtomicReference<Object>()
    do {
      let made = Object("old")
      old = made
      #expect(reference.exchange(made) == nil)
    }
    do {
      let replaced = reference.exchange(Object("new"))
      #expect(replaced?.label == "old")
      #expect(old != nil)
    }
    #expect(old == nil)
    #expect(reference.load()?.label == "new")
    #expect(reference.exchange(nil)?.label == "new")
    let isSet = reference.isSet
    #expect(!isSet)
  }
}
