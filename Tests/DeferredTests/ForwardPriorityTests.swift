import Testing

@testable import Deferred

/// A critical screen that reads documents through a forwarded protocol.
final class DocumentScreen: Sendable {
  init(store: DocumentStore) {}
}

@Suite struct ForwardPriorityTests {
  @Test func aForwardTakesItsSourcesPriority() throws {
    let container = Container(scheduler: ManualScheduler())
    let source = try container.register(FileStore.self, priority: .afterFirstFrame()) {
      FileStore()
    }
    let forward = try container.forward(source, as: DocumentStore.self)
    #expect(container.lookup(forward.erased)?.priority == .afterFirstFrame())
  }

  @Test func validateAdvisesTheSourceOfAForwardNotTheForward() throws {
    let container = Container(scheduler: ManualScheduler())
    let source = try container.register(FileStore.self, priority: .afterFirstFrame()) {
      FileStore()
    }
    try container.forward(source, as: DocumentStore.self)
    try container.register(DocumentScreen.self, priority: .critical, DocumentScreen.init(store:))
    let issues = container.validate()
    #expect(issues.map(\.code) == [.criticalNeedsDeferred])
    // The advice names what can be made critical: the source, through the forward.
    #expect(issues.first?.service == "FileStore")
    #expect(issues.first?.chain == ["DocumentScreen", "DocumentStore", "FileStore"])
  }
}
