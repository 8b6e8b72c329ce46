import Dispatch
import Testing

@testable import Deferred

protocol DocumentStore: Sendable {}
protocol Exporting: Sendable {}
protocol Unconformed: Sendable {}

final class FileStore: DocumentStore, Exporting {
  let label: String
  init(label: String = "file") { self.label = label }
}

final class Unrelated: Sendable {}

@Suite struct ForwardingTests {
  static func container(_ runs: Runs) throws -> (Container, ServiceKey<FileStore>) {
    let container = Container()
    let store = try container.register(FileStore.self) {
      runs.tick("FileStore")
      return FileStore()
    }
    try container.forward(store, as: (any DocumentStore).self) { $0 }
    try container.forward(store, as: (any Exporting).self) { $0 }
    // A conversion the compiler cannot make does not compile, so no test can try it:
    //   try container.forward(store, as: (any Unconformed).self) { $0 }
    return (container, store)
  }

  @Test(arguments: [0, 1, 2]) func oneInstanceWhicheverKeyAsksFirst(first: Int) throws {
    let runs = Runs()
    let (container, _) = try Self.container(runs)
    let resolves: [() throws -> AnyObject] = [
      { try container.resolve(FileStore.self) },
      { try container.resolve((any DocumentStore).self) as AnyObject },
      { try container.resolve((any Exporting).self) as AnyObject },
    ]
    let instance = try resolves[first]()
    for resolve in resolves { #expect(try resolve() === instance) }
    #expect(runs["FileStore"] == 1)
    // Built: the forwarded key is read lock-free, as any built singleton.
    let key = ServiceKey<any DocumentStore>()
    #expect(
      container.publishedObject(ObjectIdentifier((any DocumentStore).self), nil, key.nameHash)
        != nil)
  }

  @Test func threadsAtOnceBuildItOnce() throws {
    let runs = Runs()
    let (container, _) = try Self.container(runs)
    let seen = Locked<Set<ObjectIdentifier>>([])
    DispatchQueue.concurrentPerform(iterations: 24) { index in
      let object: AnyObject? =
        switch index % 3 {
        case 0: try? container.resolve(FileStore.self)
        case 1: (try? container.resolve((any DocumentStore).self)) as AnyObject?
        default: (try? container.resolve((any Exporting).self)) as AnyObject?
        }
      seen.withLock { _ = $0.insert(ObjectIdentifier(object!)) }
    }
    #expect(seen.withLock { $0.count } == 1)
    #expect(runs["FileStore"] == 1)
  }

  @Test func aTypeNotConformedToIsNamedByValidate() throws {
    let container = Container()
    let store = try container.register(FileStore.self) { FileStore() }
    // Two classes: the metatype check tells before anything is built.
    try container.forward(store, as: Unrelated.self)
    // A protocol: a metatype check cannot tell; once the source is built, its value can.
    try container.forward(store, as: (any Unconformed).self)
    try container.forward(store, as: (any Exporting).self)
    #expect(container.validate().map(\.service) == ["Unrelated"])
    _ = try container.resolve(store)
    let issues = container.validate()
    #expect(issues.map(\.service) == ["Unconformed", "Unrelated"])
    #expect(issues.allSatisfy { $0.code == .notConforming && $0.severity == .error })
    #expect(issues[0].message.contains("FileStore does not conform to Unconformed"))
    let error = try #require(throws: DeferredError.self) {
      try container.resolve((any Unconformed).self)
    }
    #expect(error.code == .notConforming)
    #expect(try container.resolve((any Exporting).self) as AnyObject === container.resolve(store))
  }

  @Test func theSourceMustBeRegisteredFirst() throws {
    let container = Container()
    let error = try #require(throws: DeferredError.self) {
      try container.forward(ServiceKey<FileStore>(), as: (any Exporting).self) { $0 }
    }
    #expect(error.code == .missingService)
    #expect(error.service == "FileStore")
  }

  @Test func aChildThatOverridesTheSourceForwardsItsOwn() throws {
    let runs = Runs()
    let (container, _) = try Self.container(runs)
    let child = container.makeChild()
    try child.register(FileStore.self) { FileStore(label: "memory") }
    let childStore = try child.resolve((any DocumentStore).self) as? FileStore
    #expect(childStore?.label == "memory")
    #expect(try child.resolve(FileStore.self) === childStore)
    let parentStore = try container.resolve((any DocumentStore).self) as? FileStore
    #expect(parentStore?.label == "file")
    // A child that overrides nothing shares the parent's.
    #expect(try container.makeChild().resolve((any Exporting).self) as AnyObject === parentStore)
  }
}
