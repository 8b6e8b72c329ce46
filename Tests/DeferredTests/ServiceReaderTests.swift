import Testing

@testable import Deferred

// A `Has*` layer, as apps over Factory write one: a screen's model takes one value that has
// each of its dependencies.
protocol HasLedgerStore {
  var ledgerStore: LedgerStore { get }
}
protocol HasTracker {
  var tracker: Tracker { get }
}

class LedgerStore: @unchecked Sendable {}
final class LedgerStoreDouble: LedgerStore, @unchecked Sendable {}
final class Tracker: Sendable {}
final class ContextProvider: Sendable {}

/// The first screen's model: keeps its dependencies and reads them when it needs them.
final class LedgerModel: Sendable {
  typealias Dependencies = HasLedgerStore & HasTracker & Sendable
  let dependencies: any Dependencies
  init(dependencies: any Dependencies) { self.dependencies = dependencies }
}

extension ServiceReader: HasLedgerStore, HasTracker {
  var ledgerStore: LedgerStore { self[LedgerStore.self] }
  var tracker: Tracker { self[Tracker.self] }
}

/// The layer implemented over the container itself, as such apps do: reads Deferred cannot
/// see. It holds the container unowned: a model the container keeps would otherwise keep the
/// container, a cycle.
struct ContainerLayer: HasLedgerStore, HasTracker, HasContextProvider, Sendable {
  unowned let container: Container
  init(_ container: Container) { self.container = container }
  var ledgerStore: LedgerStore { container.require(LedgerStore.self) }
  var tracker: Tracker { container.require(Tracker.self) }
  var contextProvider: ContextProvider { container.require(ContextProvider.self) }
}

/// A model that reads a context provider through its layer.
protocol HasContextProvider {
  var contextProvider: ContextProvider { get }
}
extension ServiceReader: HasContextProvider {
  var contextProvider: ContextProvider { self[ContextProvider.self] }
}
/// The first screen's model: built before the first frame, it reads its provider when it
/// loads its content, after.
final class FirstScreen: Sendable {
  let dependencies: any HasContextProvider & Sendable
  init(dependencies: any HasContextProvider & Sendable) { self.dependencies = dependencies }
  func load() -> ContextProvider { dependencies.contextProvider }
}

/// Types that take the container as their dependencies, through a `ServiceReader`: every read
/// is an edge the container knows.
@Suite struct ServiceReaderTests {
  /// `validate()` sees what a model reads through its layer: a missing service, a critical
  /// model that reads a deferred one, a cycle through reads.
  @Test func validateSeesAnEdgeReadThroughTheLayer() throws {
    let container = Container()
    try container.register(
      LedgerModel.self, priority: .critical, reading: LedgerStore.self,
      Tracker.self
    ) { reader in LedgerModel(dependencies: reader) }
    try container.register(LedgerStore.self, priority: .afterFirstFrame()) { LedgerStore() }
    let issues = container.validate()
    #expect(issues.count == 2, "\(issues)")
    #expect(issues.first?.code == .missingService)
    #expect(issues.first?.service == "Tracker")
    #expect(issues.first?.chain == ["LedgerModel", "Tracker"])
    #expect(issues.last?.code == .criticalNeedsDeferred)
    #expect(issues.last?.chain == ["LedgerModel", "LedgerStore"])

    // The same layer over the container itself: validate() sees nothing.
    let captured = Container()
    try captured.register(LedgerModel.self, priority: .critical) { [unowned captured] in
      LedgerModel(dependencies: ContainerLayer(captured))
    }
    try captured.register(LedgerStore.self, priority: .afterFirstFrame()) { LedgerStore() }
    #expect(captured.validate().isEmpty)
  }

  /// A cycle through reads is found before anything runs.
  @Test func aCycleThroughReadsIsFound() throws {
    let container = Container()
    try container.register(LedgerStore.self, reading: LedgerModel.self) { _ in LedgerStore() }
    try container.register(LedgerModel.self, reading: LedgerStore.self, Tracker.self) {
      reader in LedgerModel(dependencies: reader)
    }
    try container.register(Tracker.self) { Tracker() }
    let cycles = container.validate().filter { $0.code == .cycle }
    #expect(cycles.map(\.cycle) == [["LedgerModel", "LedgerStore", "LedgerModel"]])
  }

  /// What a model reads is built before it, and the report names the model as what needed
  /// it; a critical model's reads are built at launch.
  @Test func readsAreBuiltFirstAndRecordedAsNeededByTheModel() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(
      LedgerModel.self, priority: .critical, reading: LedgerStore.self,
      Tracker.self
    ) { reader in LedgerModel(dependencies: reader) }
    try container.register(LedgerStore.self) { LedgerStore() }
    try container.register(Tracker.self) { Tracker() }
    try container.launch()
    let report = container.launchReport()
    let neededBy = Dictionary(
      uniqueKeysWithValues: report.builds.map { ($0.service, $0.requestedBy ?? "-") })
    #expect(
      neededBy == ["LedgerModel": "-", "LedgerStore": "LedgerModel", "Tracker": "LedgerModel"])
    #expect(report.builds.allSatisfy { $0.trigger == .launch })
    #expect(report.dependencies["LedgerModel"] == ["LedgerStore", "Tracker"])
  }

  /// A service the first screen reads through its layer is needed before the first frame:
  /// no advice to defer it. Over the container itself, the advice said to.
  @Test func adviceDoesNotDeferWhatTheFirstScreenReadsThroughTheLayer() throws {
    func launch(throughReader: Bool) throws -> LaunchReport {
      let scheduler = ManualScheduler()
      let clock = scheduler.clock
      let container = Container(scheduler: scheduler, clock: clock)
      try container.register(ContextProvider.self, priority: .critical) {
        clock.advance(by: .milliseconds(48))
        return ContextProvider()
      }
      if throughReader {
        try container.register(FirstScreen.self, reading: ContextProvider.self) { reader in
          FirstScreen(dependencies: reader)
        }
      } else {
        try container.register(FirstScreen.self) { [unowned container] in
          FirstScreen(dependencies: ContainerLayer(container))
        }
      }
      try container.launch()
      let screen = try container.resolve(FirstScreen.self)
      try container.firstFrameDrawn()
      scheduler.runAll()
      _ = screen.load()
      return container.launchReport()
    }
    let captured = try launch(throughReader: false)
    #expect(captured.firstFrameUses == ["FirstScreen"])
    #expect(
      captured.advice.contains { $0.kind == .deferCritical && $0.service == "ContextProvider" })
    let bridged = try launch(throughReader: true)
    #expect(bridged.firstFrameUses == ["FirstScreen"])
    #expect(!bridged.advice.contains { $0.kind == .deferCritical }, "\(bridged.advice)")
  }

  /// A child's double reaches a model that reads through the layer, when the model is
  /// resolved from the child; the parent's model keeps the real service.
  @Test func aChildsOverrideReachesALayerRead() throws {
    let app = Container()
    try app.register(LedgerStore.self) { LedgerStore() }
    try app.register(Tracker.self) { Tracker() }
    try app.register(LedgerModel.self, reading: LedgerStore.self, Tracker.self) { reader in
      LedgerModel(dependencies: reader)
    }
    let appModel = try app.resolve(LedgerModel.self)
    let test = app.makeChild()
    try test.register(LedgerStore.self) { LedgerStoreDouble() }
    let testModel = try test.resolve(LedgerModel.self)
    #expect(testModel.dependencies.ledgerStore is LedgerStoreDouble)
    #expect(!(appModel.dependencies.ledgerStore is LedgerStoreDouble))
    // What the child does not override is the app's.
    #expect(testModel.dependencies.tracker === appModel.dependencies.tracker)

    // Over the container itself, the double never reached the model.
    let captured = Container()
    try captured.register(LedgerStore.self) { LedgerStore() }
    try captured.register(Tracker.self) { Tracker() }
    try captured.register(LedgerModel.self) { [unowned captured] in
      LedgerModel(dependencies: ContainerLayer(captured))
    }
    let child = captured.makeChild()
    try child.register(LedgerStore.self) { LedgerStoreDouble() }
    #expect(!(try child.resolve(LedgerModel.self).dependencies.ledgerStore is LedgerStoreDouble))
  }

  /// A read the registration does not declare is refused, with the fix; the throwing form
  /// reads what is declared.
  @Test func anUndeclaredReadIsRefusedWithTheFix() throws {
    let container = Container()
    try container.register(LedgerStore.self) { LedgerStore() }
    try container.register(Tracker.self) { Tracker() }
    try container.register(ContextProvider.self) { ContextProvider() }
    let key = try container.register(ServiceKey<LedgerModel>(), reading: ServiceKey<LedgerStore>())
    { reader in
      #expect(throws: DeferredError.self) { try reader.resolve(Tracker.self) }
      return LedgerModel(dependencies: reader)
    }
    let model = try container.resolve(key)
    let reader = try #require(model.dependencies as? ServiceReader)
    _ = try reader.resolve(LedgerStore.self)
    do {
      _ = try reader.resolve(Tracker.self)
      Issue.record("an undeclared read was allowed")
    } catch {
      #expect(error.code == .undeclaredRead)
      #expect(error.chain == ["LedgerModel", "Tracker"])
      #expect(
        error.description
          == "Tracker cannot be read: LedgerModel reads it through its ServiceReader, but its"
          + " registration does not declare it. Add Tracker.self to the `reading:` list of"
          + " LedgerModel's registration, so that validate(), the launch order and child"
          + " containers see the edge.")
    }
    do {
      _ = try reader.resolve(LedgerStore.self, name: "archive")
      Issue.record("an undeclared named read was allowed")
    } catch {
      #expect(error.description.contains("Add ServiceKey<LedgerStore>(name: \"archive\") to"))
    }
  }

  /// A reader does not keep its container alive; once it is gone, a read is `shutDown`.
  @Test func aReaderHoldsItsContainerWeakly() throws {
    weak var gone: Container?
    var reader: ServiceReader?
    do {
      let container = Container()
      try container.register(Tracker.self) { Tracker() }
      try container.register(LedgerModel.self, reading: Tracker.self, LedgerStore.self) { made in
        LedgerModel(dependencies: made)
      }
      try container.register(LedgerStore.self) { LedgerStore() }
      reader = try container.resolve(LedgerModel.self).dependencies as? ServiceReader
      gone = container
    }
    #expect(gone == nil)
    #expect(throws: DeferredError.self) { try reader?.resolve(Tracker.self) }
  }
}
