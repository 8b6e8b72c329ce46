import Testing

@testable import Deferred

@Suite struct ValidationTests {
  @Test func soundGraphHasNoProblems() throws {
    let container = try ChildContainerTests.app()
    #expect(container.validate().isEmpty)
  }

  @Test func everyProblemAtOnceWithoutRunningFactories() throws {
    final class A: Sendable { init(_: B) {} }
    final class B: Sendable { init(_: A) {} }
    final class Loner: Sendable { init(_: Loner) {} }
    let runs = Runs()
    let container = Container()
    try container.register(A.self) { (b: B) in
      runs.tick("A")
      return A(b)
    }
    try container.register(B.self) { (a: A) in
      runs.tick("B")
      return B(a)
    }
    try container.register(Loner.self) { (me: Loner) in
      runs.tick("Loner")
      return Loner(me)
    }
    try container.register(SyncService.self) { (storage: Storage, network: Network) in
      runs.tick("sync")
      return SyncService(storage: storage, network: network)
    }
    try container.register(Network.self) { Network() }
    let problems = container.validate()
    #expect(runs.total == 0)
    #expect(problems.map(\.code) == [.missingService, .cycle, .cycle])
    #expect(problems.allSatisfy { $0.severity == .error })
    #expect(problems[0].service == "Storage")
    #expect(problems[0].chain == ["SyncService", "Storage"])
    #expect(problems[1].cycle == ["A", "B", "A"])
    #expect(problems[2].cycle == ["Loner", "Loner"])
  }

  @Test func childValidatesItsOwnView() throws {
    let parent = Container()
    try parent.register(SyncService.self) { (storage: Storage, network: Network) in
      SyncService(storage: storage, network: network)
    }
    try parent.register(Network.self) { Network() }
    #expect(parent.validate().map(\.service) == ["Storage"])
    let child = parent.makeChild()
    try child.register(Storage.self) { Storage() }
    #expect(child.validate().isEmpty)
    #expect(try child.resolve(SyncService.self).storage.label == "disk")
  }
}
