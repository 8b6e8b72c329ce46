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
      if index % 100 == 0 { nodes.append(Weak(container?.lookup(box(index).erased))) }
    }
    let retained = try #require(container?.retainedTables)
    // The live table, at most half full, and the tables published, each published when the
    // live one had twice the keys of the one before. (A table published at every resolve,
    // each kept, would hold 2,001,000 references.)
    #expect(retained.slots < 8 * rounds)
    #expect(retained.nodeReferences < 3 * rounds)
    #expect(retained.tables <= rounds.bitWidth - rounds.leadingZeroBitCount + 1)
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
    _ = container?.lookup(ServiceKey<Storage>().erased)  // publishes the table
    let first = Weak(container?.lookup(ServiceKey<Storage>().erased))
    try container?.register(Storage.self, replacing: true) { Storage(label: "second") }
    #expect(try container?.resolve(Storage.self).label == "second")
    #expect(first.object != nil)
    // The table published before the replacement, and the one published with it.
    #expect(container?.retainedTables.nodeReferences == 2)
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

/// The read of a built singleton: each key finds its own value, and only a value handed to
/// the app is marked as used by it.
@Suite struct ReadyValueTests {
  @Test func unnamedKeysOfManyTypesEachReadTheirOwnValue() throws {
    // Eleven types in a table of 32 slots: some share a home slot, and are found past it.
    let container = Container()
    try container.register(Int.self) { 1 }
    try container.register(String.self) { "two" }
    try container.register(Double.self) { 3.5 }
    try container.register([Int].self) { [4] }
    try container.register(Set<Int>.self) { [5] }
    try container.register(UInt8.self) { 6 }
    try container.register(Int16.self) { 7 }
    try container.register(Bool.self) { true }
    try container.register(Storage.self) { Storage(label: "nine") }
    try container.register(Network.self) { Network(online: false) }
    try container.register(Int.self, name: "named") { 11 }
    for _ in 0..<3 {
      #expect(try container.resolve(Int.self) == 1)
      #expect(try container.resolve(String.self) == "two")
      #expect(try container.resolve(Double.self) == 3.5)
      #expect(try container.resolve([Int].self) == [4])
      #expect(try container.resolve(Set<Int>.self) == [5])
      #expect(try container.resolve(UInt8.self) == 6)
      #expect(container.require(Int16.self) == 7)
      #expect(try container.resolve(ServiceKey<Bool>()))
      #expect(try container.resolve(Storage.self).label == "nine")
      #expect(try !container.resolve(Network.self).online)
      #expect(try container.resolve(Int.self, name: "named") == 11)
    }
    #expect(try #require(container.lookup(AnyServiceKey(Int.self, name: nil))).wasResolved.isSet)
  }

  @Test func onlyAValueHandedToTheAppIsMarkedResolved() throws {
    let container = Container()
    try container.register(Storage.self) { Storage(label: "unnamed") }
    try container.register(Storage.self, name: "cache") { Storage(label: "cache") }
    try container.register(Network.self) { Network() }
    try container.register(SyncService.self, SyncService.init(storage:network:))
    let storage = try #require(container.lookup(ServiceKey<Storage>().erased))
    let network = try #require(container.lookup(ServiceKey<Network>().erased))
    _ = try container.resolve(SyncService.self)  // Storage and Network built for a factory
    #expect(storage.isPublished && network.isPublished)
    #expect(!storage.wasResolved.isSet && storage.wasNeeded.isSet)
    let first = try container.resolve(Storage.self)  // the app's read marks it
    #expect(storage.wasResolved.isSet)
    #expect(try container.resolve(Storage.self) === first)
    #expect(container.require(Storage.self) === first)
    #expect(try container.resolve(ServiceKey<Storage>()) === first)
    let cache = try container.resolve(Storage.self, name: "cache")
    #expect(cache.label == "cache")
    #expect(!network.wasResolved.isSet)
  }

  @Test func aChildReadsItsOwnCopyAndItsParentsSharedValues() throws {
    let parent = Container()
    try parent.register(Storage.self) { Storage() }
    try parent.register(Network.self) { Network() }
    try parent.register(SyncService.self, SyncService.init(storage:network:))
    let parentSync = try parent.resolve(SyncService.self)
    #expect(try parent.resolve(SyncService.self) === parentSync)
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    for _ in 0..<2 {
      let childSync = try child.resolve(SyncService.self)
      #expect(childSync !== parentSync)
      #expect(!childSync.network.online)
      #expect(try child.resolve(Storage.self) === parentSync.storage)
      #expect(try parent.resolve(SyncService.self) === parentSync)
    }
  }

  @Test func aShutDownContainerReadsNothing() throws {
    let container = Container()
    try container.register(Storage.self) { Storage() }
    _ = try container.resolve(Storage.self)
    _ = try container.resolve(Storage.self)
    container.shutDown()
    let error = #expect(throws: DeferredError.self) { try container.resolve(Storage.self) }
    #expect(error?.code == .shutDown)
  }
}
