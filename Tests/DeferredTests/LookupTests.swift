import Dispatch
import Synchronization
import Testing

@testable import Deferred

/// The lookup table: what it keeps, and what it finds while it grows.
@Suite struct LookupTests {
  final class Weak: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject?) { self.object = object }
  }

  @Test func registeringAndResolvingInTurnKeepsMemoryFlat() throws {
    let rounds = 2_000
    var container: Container? = Container()
    var nodes: [Weak] = []
    for index in 0..<rounds {
      try container?.register(box(index)) { Box(index) }
      #expect(try container?.resolve(box(index)).id == index)
      if index % 100 == 0 { nodes.append(Weak(container?.node(for: box(index).erased))) }
    }
    let retained = try #require(container?.retainedTables)
    // One live table at most half full, and the tables it outgrew, each half its successor.
    // (Every table ever published, kept, would hold 2,001,000 references.)
    #expect(retained.slots < 8 * rounds)
    #expect(retained.nodeReferences < 3 * rounds)
    #expect(retained.tables <= rounds.bitWidth - rounds.leadingZeroBitCount)
    #expect(try container?.resolve(box(0)).id == 0)
    #expect(nodes.allSatisfy { $0.object != nil })
    let weakContainer = Weak(container)
    container = nil
    #expect(weakContainer.object == nil)
    #expect(nodes.allSatisfy { $0.object == nil })
  }

  @Test func replacedNodesLiveUntilTheContainerGoes() throws {
    var container: Container? = Container()
    try container?.register(Storage.self) { Storage(label: "first") }
    _ = container?.node(for: ServiceKey<Storage>().erased)  // publishes the table
    let first = Weak(container?.node(for: ServiceKey<Storage>().erased))
    try container?.register(Storage.self, replacing: true) { Storage(label: "second") }
    #expect(try container?.resolve(Storage.self).label == "second")
    #expect(first.object != nil)
    #expect(container?.retainedTables.nodeReferences == 1)
    container = nil
    #expect(first.object == nil)
  }

  @Test func aChildKeepsOnlyItsOwnAndItsCopies() throws {
    let parent = Container()
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    for index in 0..<500 {
      try parent.register(box(index)) { Box(index) }
      #expect(try child.resolve(box(index)).id == index)
    }
    #expect(child.retainedTables.nodeReferences == 1)
    #expect(try child.resolve(box(0)) === (try parent.resolve(box(0))))
  }

  @Test func aTableGrownUnderReadersLosesNoKey() throws {
    let container = Container()
    let initial = 8
    for index in 0..<initial {
      try container.register(box(index)) { Box(index) }
      _ = try container.resolve(box(index))
    }
    let total = 4_000
    let registered = Atomic<Int>(initial)
    let misses = Atomic<Int>(0)
    let reads = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      if worker == 0 {
        for index in initial..<total {
          _ = try? container.register(box(index)) { Box(index) }
          registered.store(index + 1, ordering: .releasing)
        }
        return
      }
      var step = worker
      while true {
        let count = registered.load(ordering: .acquiring)
        // Every key registered so far, newest and oldest alike, from a different start each time.
        for index in [count - 1, step % count, (step &* 7919) % count] {
          if (try? container.resolve(box(index)))?.id != index {
            misses.add(1, ordering: .relaxed)
          }
        }
        reads.add(3, ordering: .relaxed)
        step &+= 1
        if count == total { break }
      }
    }
    #expect(misses.load(ordering: .relaxed) == 0)
    #expect(reads.load(ordering: .relaxed) >= 9)
    for index in 0..<total { #expect(try container.resolve(box(index)).id == index) }
  }
}

/// Names that are equal strings are one key, however each is spelt.
@Suite struct KeyEqualityTests {
  @Test(arguments: [("caf\u{E9}", "cafe\u{301}"), ("\u{212A}elvin", "Kelvin")])
  func canonicallyEqualNamesAreOneKey(spelling: String, other: String) throws {
    #expect(spelling == other)
    #expect(Array(spelling.utf8) != Array(other.utf8))
    let container = Container()
    try container.register(Storage.self, name: spelling) { Storage(label: spelling) }
    #expect(try container.resolve(Storage.self, name: other).label == spelling)
    #expect(try container.resolve(ServiceKey<Storage>(name: spelling)).label == spelling)
    let error = #expect(throws: DeferredError.self) {
      try container.register(Storage.self, name: other) { Storage() }
    }
    #expect(error?.code == .duplicateRegistration)
    try container.register(Network.self, name: other) { Network() }
    #expect(try container.resolve(Network.self, name: spelling).online)
  }

  @Test func kelvinSignAloneIsTheLetterK() throws {
    let container = Container()
    try container.register(Storage.self, name: "K") { Storage(label: "K") }
    #expect(try container.resolve(Storage.self, name: "\u{212A}").label == "K")
    #expect(try container.resolve(Storage.self, name: "K").label == "K")
  }
}
