import Synchronization
import Testing

@testable import Deferred

/// A singleton's value is kept as one object: itself if it is a class instance, in a box
/// otherwise; held ones apart from the node. Each must be read back whole, stay the one readers
/// found, and be destroyed exactly once.
@Suite struct ValueStorageTests {
  /// Counts deinits in a shared tally.
  final class Counted: Sendable {
    let tally: Tally
    let label: String

    init(_ label: String, _ tally: Tally) {
      self.label = label
      self.tally = tally
    }

    deinit { tally.deinits.add(1, ordering: .relaxed) }
  }

  final class Tally: Sendable {
    let deinits = Atomic<Int>(0)
  }

  struct TwoWords: Sendable {
    let object: Counted
    let number: Int
  }

  struct ThreeWords: Sendable {
    let object: Counted
    let first: Int
    let second: Int
  }

  @Test func valuesOfEverySizeAreReadBackWholeAndInPlace() throws {
    let container = Container()
    let tally = Tally()
    try container.register(Bool.self) { true }
    try container.register(Int.self) { 42 }
    try container.register(String.self) { "a string longer than fifteen bytes, on the heap" }
    try container.register(TwoWords.self) { TwoWords(object: Counted("two", tally), number: 2) }
    try container.register(ThreeWords.self) {
      ThreeWords(object: Counted("three", tally), first: 3, second: 4)
    }
    try container.register(SIMD4<Float>.self) { SIMD4(1, 2, 3, 4) }
    #expect(try container.resolve(Bool.self) == true)
    #expect(try container.resolve(Int.self) == 42)
    #expect(
      try container.resolve(String.self) == "a string longer than fifteen bytes, on the heap")
    let two = try container.resolve(TwoWords.self)
    #expect(two.object.label == "two" && two.number == 2)
    let three = try container.resolve(ThreeWords.self)
    #expect(three.object.label == "three" && three.first == 3 && three.second == 4)
    #expect(try container.resolve(SIMD4<Float>.self) == SIMD4(1, 2, 3, 4))
    // Read again: the same instances, from the same place.
    #expect(try container.resolve(TwoWords.self).object === two.object)
    #expect(try container.resolve(ThreeWords.self).object === three.object)
    let node = try #require(container.lookup(ServiceKey<TwoWords>().erased))
    let first = node.value.load()
    #expect(first != nil)
    _ = try container.resolve(TwoWords.self)
    let again = node.value.load()
    #expect(again === first)
  }

  @Test func aValueInTheNodeIsDestroyedOnceWhenTheContainerGoes() throws {
    let tally = Tally()
    weak var object: Counted?
    do {
      let container = Container()
      try container.register(Counted.self) { Counted("one word", tally) }
      try container.register(TwoWords.self) { (counted: Counted) in
        TwoWords(object: Counted("two words", tally), number: counted.label.count)
      }
      try container.register(ThreeWords.self) {
        ThreeWords(object: Counted("three words", tally), first: 1, second: 2)
      }
      object = try container.resolve(Counted.self)
      _ = try container.resolve(TwoWords.self)
      _ = try container.resolve(ThreeWords.self)
      #expect(object != nil)
      #expect(tally.deinits.load(ordering: .relaxed) == 0)
    }
    #expect(object == nil)
    #expect(tally.deinits.load(ordering: .relaxed) == 3)
  }

  @Test func aFailedBuildGivesTheStorageBackForTheNextAttempt() throws {
    let container = Container()
    let tally = Tally()
    let attempts = Atomic<Int>(0)
    try container.register(Counted.self) {
      if attempts.add(1, ordering: .relaxed).newValue == 1 { throw Failure(message: "not yet") }
      return Counted("second attempt", tally)
    }
    #expect(throws: DeferredError.self) { try container.resolve(Counted.self) }
    #expect(try container.resolve(Counted.self).label == "second attempt")
    let node = try #require(container.lookup(ServiceKey<Counted>().erased))
    #expect(node.isPublished)
  }

  @Test func aSingletonBuiltWithANamedScopeKeepsItsValueApartFromTheNode() throws {
    let container = Container()
    let tally = Tally()
    let session = Scope.named("valueStorageSession")
    try container.register(Int.self, scope: session) { 7 }
    try container.register(Counted.self) { (number: Int) in Counted("built with \(number)", tally) }
    weak var first: Counted?
    do {
      let counted = try container.resolve(Counted.self)
      first = counted
      #expect(counted.label == "built with 7")
    }
    let node = try #require(container.lookup(ServiceKey<Counted>().erased))
    // Held in a box of its generation, not published in the node: a reset can drop it.
    #expect(!node.isPublished)
    container.reset(session)
    #expect(first == nil)
    #expect(tally.deinits.load(ordering: .relaxed) == 1)
    #expect(try container.resolve(Counted.self).label == "built with 7")
  }
}
