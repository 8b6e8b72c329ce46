import Deferred
import Dispatch
import Testing

@testable import DeferredTesting

/// What `Container.test` says where the test's task-local values do not reach, and the way to
/// a container that needs no trait.
@Suite struct OffTaskTests {
  /// Runs `work` on a Dispatch queue, off the test's task, and hands back what it returned.
  func onADispatchQueue<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: work()) }
    }
  }

  @Test func readingTheContainerOnADispatchQueueSaysToPassIt() async throws {
    try await Container.withTestContainer(from: AppContainer.shared) { container in
      let (message, read) = await onADispatchQueue { () -> (String, Container) in
        var message = ""
        let read = Container.testContainer { message = $0 }
        return (message, read)
      }
      #expect(read !== container)
      #expect(read.parent == nil)
      #expect(message.hasPrefix("Container.test is read off any test's task: on a Dispatch queue"))
      #expect(message.contains("Read `let container = Container.test` in the test's body"))
      #expect(message.contains("pass that container"))
      // On the test's own task, the same read finds the container and reports nothing.
      #expect(Container.testContainer { Issue.record("unexpected: \($0)") } === container)
    }
  }

  @Test func aTestWithoutTheTraitIsNamed() {
    var message = ""
    _ = Container.testContainer { message = $0 }
    #expect(
      message.hasPrefix(
        "Container.test is read in the test aTestWithoutTheTraitIsNamed(), which has no"
          + " .deferred trait"))
  }

  @Test func aContainerWithoutATrait() async throws {
    let seen = try await Container.withTestContainer(from: AppContainer.shared) {
      try $0.register(Greeting.self, replacing: true) { Greeting(text: "called") }
    } body: { container in
      #expect(Container.test === container)
      #expect(container.parent === AppContainer.shared)
      return try container.resolve(Greeter.self).greeting.text
    }
    #expect(seen == "called")
    #expect(try AppContainer.shared.resolve(Greeter.self).greeting.text == "real")
  }

  @Test func callsNestLikeTraits() async throws {
    try await Container.withTestContainer(from: AppContainer.shared) { outer in
      try await Container.withTestContainer { inner in
        #expect(inner.parent === outer)
        #expect(Container.test === inner)
      }
      #expect(Container.test === outer)
    }
  }
}
