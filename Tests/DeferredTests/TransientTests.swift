import Synchronization
import Testing

@testable import Deferred

/// Counts, from any thread: `add()` returns the new count.
private final class Tally: Sendable {
  private let count = Atomic(0)
  func add() -> Int { count.add(1, ordering: .relaxed).newValue }
}

/// A switch, from any thread.
private final class Flag: Sendable {
  private let value = Atomic(false)
  var isSet: Bool { value.load(ordering: .relaxed) }
  func set() { value.store(true, ordering: .relaxed) }
  func clear() { value.store(false, ordering: .relaxed) }
}

/// Transients of every size and alignment: these check that values, nested makings and
/// failures all come out whole.
@Suite struct TransientTests {
  /// A large value.
  struct Large: Equatable {
    var words:
      (
        SIMD64<UInt64>, SIMD64<UInt64>, SIMD64<UInt64>
      )
    static func == (lhs: Large, rhs: Large) -> Bool {
      lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
    }
  }

  struct Empty: Equatable {}

  final class Counter: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
  }

  @Test func nestedTransientsOfEverySizeComeOutWhole() throws {
    let container = Container()
    let made = Tally()
    try container.register(Counter.self, scope: .transient) { Counter(made.add()) }
    try container.register(Empty.self, scope: .transient) { Empty() }
    try container.register(String.self, scope: .transient) {
      (counter: Counter, empty: Empty) in "counter \(counter.value) \(empty == Empty())"
    }
    try container.register(Large.self, scope: .transient) { (text: String, counter: Counter) in
      let fill = UInt64(text.count + counter.value)
      return Large(words: (SIMD64(repeating: fill), SIMD64(repeating: fill + 1), .zero))
    }
    for round in 0..<3 {
      defer { #expect(BuildContext.current.isIdle) }
      let large = try container.resolve(Large.self)
      // Each round makes three counters: the string's, the large value's, and its string's.
      let counter = 2 + round * 3
      let fill = UInt64("counter \(counter - 1) true".count + counter)
      #expect(large == Large(words: (SIMD64(repeating: fill), SIMD64(repeating: fill + 1), .zero)))
      #expect(try container.resolve(String.self) == "counter \(counter + 1) true")
    }
  }

  @Test func aFailedMakingGivesItsMemoryBack() throws {
    let container = Container()
    let fail = Flag()
    try container.register(SIMD16<UInt64>.self, scope: .transient) {
      if fail.isSet { throw Failure(message: "switched off") }
      return SIMD16(repeating: 7)
    }
    fail.set()
    // A thousand failures in a row: each one leaves the context idle.
    for _ in 0..<1_000 {
      #expect(throws: DeferredError.self) { try container.resolve(SIMD16<UInt64>.self) }
    }
    #expect(BuildContext.current.isIdle)
    fail.clear()
    #expect(try container.resolve(SIMD16<UInt64>.self) == SIMD16(repeating: 7))
    #expect(BuildContext.current.isIdle)
  }
}
