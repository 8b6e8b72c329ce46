import Deferred
import Testing

@testable import DeferredSwiftUI

@MainActor @Suite struct LoaderBindingTests {
  @Test func aChangeOfContainerWaitsOnTheNewOneAtOnce() async throws {
    let first = Container()
    try first.register(Catalog.self) { Catalog() }
    let second = Container()
    try second.register(Catalog.self) { Catalog() }
    let binding = LoaderBinding<Catalog>()
    var changes = 0
    binding.onChange = { changes += 1 }
    #expect(binding.follow(first, name: nil, policy: .buildNow))
    await eventually { binding.wait?.service != nil }
    let fromFirst = try #require(binding.wait?.service)
    #expect(fromFirst === (try first.resolve(Catalog.self)))
    #expect(changes == 1)
    // The same container: the same wait, nothing reloaded.
    #expect(!binding.follow(first, name: nil, policy: .buildNow))
    // A new container: waiting at once, never the old container's service.
    #expect(binding.follow(second, name: nil, policy: .buildNow))
    guard case .waiting = binding.state else {
      Issue.record("a binding shows \(String(describing: binding.state)) of its old container")
      return
    }
    await eventually { binding.wait?.service != nil }
    #expect(binding.wait?.service === (try second.resolve(Catalog.self)))
    #expect(binding.wait?.service !== fromFirst)
  }

  @Test func withoutAContainerThereIsNoState() throws {
    let container = Container()
    try container.register(Catalog.self) { Catalog() }
    let binding = LoaderBinding<Catalog>()
    #expect(!binding.follow(nil, name: nil, policy: .waitForTurn))
    #expect(binding.state == nil)
    #expect(binding.follow(container, name: nil, policy: .waitForTurn))
    #expect(binding.state != nil)
    #expect(binding.follow(nil, name: nil, policy: .waitForTurn))
    #expect(binding.state == nil)
  }

  @Test func anotherNameOrPolicyIsANewWait() throws {
    let container = Container()
    let binding = LoaderBinding<Catalog>()
    binding.follow(container, name: nil, policy: .waitForTurn)
    #expect(binding.follow(container, name: "b", policy: .waitForTurn))
    #expect(binding.follow(container, name: "b", policy: .buildNow))
    #expect(!binding.follow(container, name: "b", policy: .buildNow))
  }

  @Test func aResetReachesTheBindingsWait() async throws {
    let numbers = Numbers()
    let app = Container()
    try app.register(UserSession.self, scope: .userSession) { UserSession(numbers.next()) }
    let binding = LoaderBinding<UserSession>()
    binding.follow(app, name: nil, policy: .buildNow)
    await eventually { binding.wait?.service != nil }
    let first = try #require(binding.wait?.service)
    app.reset(.userSession)
    await eventually { binding.wait?.service.map { $0 !== first } ?? false }
    #expect(binding.wait?.service === (try app.resolve(UserSession.self)))
  }
}
