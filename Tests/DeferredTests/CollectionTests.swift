import Testing

@testable import Deferred

protocol AnalyticsSink: Sendable {
  var name: String { get }
}

struct NamedSink: AnalyticsSink {
  let name: String
}

final class Analytics: Sendable {
  let sinks: [any AnalyticsSink]
  init(sinks: [any AnalyticsSink]) { self.sinks = sinks }
}

@Suite struct CollectionTests {
  static let sinks = CollectionKey<any AnalyticsSink>()

  @Test func criticalMembersAreBuiltAtLaunchInOrder() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    let order = Locked<[String]>([])
    for name in ["console", "file", "remote"] {
      try container.contribute(to: Self.sinks, priority: .critical) {
        order.withLock { $0.append(name) }
        return NamedSink(name: name)
      }
    }
    #expect(order.withLock { $0 }.isEmpty)
    try container.launch()
    #expect(order.withLock { $0 } == ["console", "file", "remote"])
    let report = container.launchReport()
    // Every member is critical, so the collection is: built at launch, after its members.
    #expect(report.builds.last?.service == "Array<AnalyticsSink>")
    #expect(report.builds.first?.service == "AnalyticsSink #0.0 of Array<AnalyticsSink>")
    #expect(try container.resolve(Self.sinks).map(\.name) == ["console", "file", "remote"])
    #expect(order.withLock { $0 }.count == 3)
  }

  @Test func theCollectionWaitsForItsDeferredMembers() throws {
    let scheduler = ManualScheduler()
    let runs = Runs()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Network.self) { Network() }
    try container.contribute(to: Self.sinks, priority: .critical) {
      runs.tick("console")
      return NamedSink(name: "console")
    }
    try container.contribute(to: Self.sinks, priority: .afterFirstFrame()) {
      (network: Network) in
      runs.tick("remote")
      return NamedSink(name: network.online ? "remote" : "offline")
    }
    try container.launch()
    #expect((runs["console"], runs["remote"]) == (1, 0))
    try container.firstFrameDrawn()
    // The collection is scheduled after the first frame, gated on its deferred member.
    #expect(scheduler.queued == ["build AnalyticsSink #0.1 of Array<AnalyticsSink>"])
    // The member's build makes the collection's ready, and its thread builds that next.
    #expect(scheduler.runNext())
    #expect(scheduler.queued.isEmpty)
    #expect(container.isFullyReady)
    #expect(
      container.launchReport().builds.filter { $0.trigger == .scheduled }.map(\.service) == [
        "Network", "AnalyticsSink #0.1 of Array<AnalyticsSink>", "Array<AnalyticsSink>",
      ])
    #expect(try container.resolve(Self.sinks).map(\.name) == ["console", "remote"])
  }

  @Test func aFactoryDeclaresTheCollectionAsAParameter() throws {
    let container = Container()
    try container.contribute(to: Self.sinks) { NamedSink(name: "console") }
    try container.register(Analytics.self, Analytics.init(sinks:))
    #expect(try container.resolve(Analytics.self).sinks.map(\.name) == ["console"])
    #expect(container.validate().isEmpty)
  }

  @Test func nothingContributedIsAnEmptyCollection() throws {
    let container = Container()
    #expect(try container.resolve(Self.sinks).isEmpty)
    #expect(try container.resolve(CollectionKey<Int>(name: "none")).isEmpty)
  }

  /// A collection nothing was contributed to is `[]` every way it is asked for: by its key,
  /// by its service's key (resolved, awaited, through a handle), as a factory's parameter, and
  /// `validate()` finds nothing missing; a contribution after it was handed out is refused.
  @Test func anEmptyCollectionIsEmptyEveryWayItIsAskedFor() async throws {
    let container = Container(scheduler: ManualScheduler())
    let numbers = CollectionKey<Int>()
    try container.register(Analytics.self, Analytics.init(sinks:))
    try container.register(String.self) { (numbers: [Int]) in "\(numbers.count) numbers" }
    #expect(container.validate().isEmpty)
    #expect(try container.resolve(numbers.service) == [])
    #expect(try await container.awaitService(CollectionKey<Double>().service) == [])
    #expect(try container.handle(for: CollectionKey<Int8>().service).resolve() == [])
    #expect(try container.resolve(String.self) == "0 numbers")
    #expect(try container.resolve(Analytics.self).sinks.isEmpty)
    #expect(try container.resolve(numbers) == [])
    let late = try #require(throws: DeferredError.self) {
      try container.contribute(to: numbers) { 1 }
    }
    #expect(late.code == .registrationTooLate)
    // In a child too, which also sees the parent's empty collection as empty.
    let child = container.makeChild()
    #expect(try child.resolve(CollectionKey<UInt>().service) == [])
  }

  @Test func contributingAfterTheCollectionWasBuiltFails() throws {
    let container = Container()
    try container.contribute(to: Self.sinks) { NamedSink(name: "console") }
    _ = try container.resolve(Self.sinks)
    let error = try #require(throws: DeferredError.self) {
      try container.contribute(to: Self.sinks) { NamedSink(name: "late") }
    }
    #expect(error.code == .registrationTooLate)
    #expect(error.description.contains("Array<AnalyticsSink> was built already"))
    #expect(try container.resolve(Self.sinks).map(\.name) == ["console"])
  }

  @Test func anArrayRegisteredAsAServiceIsNotACollection() throws {
    let container = Container()
    try container.register([any AnalyticsSink].self) { [] }
    let error = try #require(throws: DeferredError.self) {
      try container.contribute(to: Self.sinks) { NamedSink(name: "console") }
    }
    #expect(error.code == .duplicateRegistration)
  }

  @Test func aChildContributesInTheChildOnly() throws {
    let container = Container()
    let runs = Runs()
    try container.contribute(to: Self.sinks) {
      runs.tick("console")
      return NamedSink(name: "console")
    }
    try container.contribute(to: Self.sinks) { NamedSink(name: "file") }
    let child = container.makeChild()
    try child.contribute(to: Self.sinks) { NamedSink(name: "test") }
    #expect(try child.resolve(Self.sinks).map(\.name) == ["console", "file", "test"])
    #expect(try container.resolve(Self.sinks).map(\.name) == ["console", "file"])
    #expect(runs["console"] == 1)  // the parent's member is shared
    // Named collections are apart.
    let named = CollectionKey<any AnalyticsSink>(name: "debug")
    try container.contribute(to: named) { NamedSink(name: "debug") }
    #expect(try container.resolve(named).map(\.name) == ["debug"])
  }
}
