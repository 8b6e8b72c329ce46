import Testing

@testable import Deferred

struct Persistence: Module {
  let runs: Runs
  func register(in container: Container) throws(DeferredError) {
    let runs = runs
    try container.register(Storage.self) {
      runs.tick("Storage")
      return Storage()
    }
  }
}

struct Sync: Module {
  let runs: Runs
  func register(in container: Container) throws(DeferredError) {
    let runs = runs
    try container.register(SyncService.self) { (storage: Storage, network: Network) in
      runs.tick("SyncService")
      return SyncService(storage: storage, network: network)
    }
  }
}

struct Networking: Module {
  var name: String { "Networking (offline)" }
  func register(in container: Container) throws(DeferredError) {
    try container.register(Network.self) { Network(online: false) }
  }
}

/// A module whose singleton holds a weak service: a scope warning about its registration.
struct Caching: Module {
  func register(in container: Container) throws(DeferredError) {
    try container.register(Storage.self, scope: .weak) { Storage() }
    try container.register(SyncService.self) { (storage: Storage) in
      SyncService(storage: storage, network: Network())
    }
  }
}

@Suite struct ModuleTests {
  @Test func aScopeWarningNamesTheModuleOfTheServiceToChange() throws {
    let container = Container()
    try container.install(Caching())
    let warning = try #require(container.validate().first { $0.code == .scopeMismatch })
    #expect(warning.severity == .warning && warning.service == "Storage")
    #expect(warning.module == "Caching")
    #expect(warning.message.hasSuffix("(SyncService is registered by module Caching.)"))
  }

  @Test func aModulesMissingDependencyIsNamedWithTheModule() throws {
    let runs = Runs()
    let container = Container()
    try container.install(Persistence(runs: runs), Sync(runs: runs))
    #expect(runs.total == 0)  // installing registers, and runs nothing
    let issues = container.validate()
    #expect(issues.count == 1)
    let issue = try #require(issues.first)
    #expect(issue.code == .missingService && issue.service == "Network")
    #expect(issue.module == "Sync")
    #expect(issue.message.hasSuffix("(SyncService is registered by module Sync.)"))
    #expect(container.module(of: ServiceKey<Storage>()) == "Persistence")
    #expect(container.module(of: ServiceKey<SyncService>()) == "Sync")

    try container.install(Networking())
    #expect(container.validate().isEmpty)
    #expect(container.module(of: ServiceKey<Network>()) == "Networking (offline)")
    #expect(try container.resolve(SyncService.self).network.online == false)
  }

  @Test func registrationsOutsideAModuleRememberNone() throws {
    let container = Container()
    try container.install(Persistence(runs: Runs()))
    try container.register(Network.self) { Network() }
    #expect(container.module(of: ServiceKey<Network>()) == nil)
    // A registration replaced outside a module no longer names the module.
    try container.register(Storage.self, replacing: true) { Storage(label: "memory") }
    #expect(container.module(of: ServiceKey<Storage>()) == nil)
  }

  @Test func aModulesErrorIsThrownByInstall() throws {
    let container = Container()
    try container.install(Persistence(runs: Runs()))
    let error = try #require(throws: DeferredError.self) {
      try container.install(Persistence(runs: Runs()))
    }
    #expect(error.code == .duplicateRegistration)
  }

  @Test func aChildsModulesAreNamedInTheChild() throws {
    let runs = Runs()
    let container = Container()
    try container.install(Persistence(runs: runs))
    let child = container.makeChild()
    try child.install(Sync(runs: runs))
    #expect(child.validate().map(\.module) == ["Sync"])
    #expect(container.validate().isEmpty)
    // The child inherits the parent's registrations, and their modules.
    #expect(child.module(of: ServiceKey<Storage>()) == "Persistence")
    // An override in the child made outside a module names none.
    let other = container.makeChild()
    try other.register(Storage.self) { Storage(label: "memory") }
    #expect(other.module(of: ServiceKey<Storage>()) == nil)
  }
}
