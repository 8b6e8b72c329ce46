import Deferred
import DeferredTesting
import Testing

/// What every test below reads: a greeting that the app registers once and tests override.
struct Greeting: Sendable, Equatable {
  let text: String
}

/// A service built from the greeting: a test's override must reach it, and only in that test.
final class Greeter: Sendable {
  let greeting: Greeting
  init(greeting: Greeting) { self.greeting = greeting }
}

/// The app's composition root, shared by every test in this target: one parent for all.
enum AppContainer {
  static let shared: Container = {
    let container = Container()
    do {
      try container.register(Greeting.self) { Greeting(text: "real") }
      try container.register(Greeter.self, Greeter.init(greeting:))
    } catch {
      preconditionFailure("the app's registrations are valid: \(error)")
    }
    return container
  }()
}

/// Lets other tasks run before the test reads its container again, so that tests running in
/// parallel interleave their overrides and reads.
func interleave() async {
  for _ in 0..<20 { await Task.yield() }
}

/// Each test registers a greeting of its own and reads it back after other tests had the
/// chance to run: a shared container would fail the registration (a duplicate) or return
/// another test's greeting.
func expectOwnGreeting(_ text: String) async throws {
  let container = Container.test
  try container.register(Greeting.self, replacing: true) { Greeting(text: text) }
  await interleave()
  #expect(try container.resolve(Greeter.self).greeting == Greeting(text: text))
  #expect(Container.test === container)
  // The parent never sees a test's override, and still builds its own Greeter.
  #expect(try AppContainer.shared.resolve(Greeter.self).greeting == Greeting(text: "real"))
}

// The traits exist from Swift 6.1 on (`TestScoping`).
#if compiler(>=6.1)
  @Suite(.deferred(from: AppContainer.shared))
  struct ParallelSuiteA {
    @Test(arguments: 0..<25)
    func eachCaseHasItsOwnContainer(index: Int) async throws {
      try await expectOwnGreeting("A\(index)")
    }
  }

  @Suite(.deferred(from: AppContainer.shared))
  struct ParallelSuiteB {
    @Test(arguments: 0..<25)
    func eachCaseHasItsOwnContainer(index: Int) async throws {
      try await expectOwnGreeting("B\(index)")
    }

    @Test func aTestOfTheSuiteHasItsOwnContainerToo() async throws {
      try await expectOwnGreeting("B-single")
    }
  }

  @Suite(
    .deferred(from: AppContainer.shared) {
      try $0.register(Greeting.self, replacing: true) { Greeting(text: "suite") }
    })
  struct SuiteOverrides {
    @Test func aTestSeesTheSuitesOverride() throws {
      #expect(try Container.test.resolve(Greeter.self).greeting.text == "suite")
      #expect(Container.test.parent === AppContainer.shared)
    }

    @Test(.deferred { try $0.register(Greeting.self, replacing: true) { Greeting(text: "test") } })
    func aTestsOwnTraitNestsInsideTheSuites() throws {
      let container = Container.test
      #expect(try container.resolve(Greeter.self).greeting.text == "test")
      // The test's child is made from the suite's child, which is made from the app's.
      #expect(try container.parent?.resolve(Greeting.self).text == "suite")
      #expect(container.parent?.parent === AppContainer.shared)
    }

    @Suite struct Nested {
      @Test func aNestedSuiteInheritsTheTrait() throws {
        #expect(try Container.test.resolve(Greeting.self).text == "suite")
      }
    }
  }

  @Suite struct TraitScopes {
    @Test(.deferred) func theBareTraitGivesAnEmptyContainer() throws {
      #expect(Container.test.parent != nil)
      #expect(throws: DeferredError.self) { try Container.test.resolve(Greeting.self) }
    }

    @Test func outsideTheTraitReadingTheContainerRecordsAnIssue() {
      withKnownIssue {
        _ = Container.test
      } matching: { issue in
        issue.description.contains("which has no .deferred trait")
      }
    }

    @Test func outsideTheTraitReadingTheSchedulerRecordsAnIssue() {
      withKnownIssue {
        _ = Container.testScheduler
      } matching: { issue in
        issue.description.contains(".deferredManualLaunch")
      }
    }

    @Test func theTraitScopesEachTestCaseButNotASuite() throws {
      let trait = ContainerTrait.deferred
      let test = try #require(Test.current)
      #expect(trait.scopeProvider(for: test, testCase: nil) == nil)
      #expect(trait.scopeProvider(for: test, testCase: Test.Case.current) != nil)
      #expect(trait.isRecursive)
    }

    @Test func twoScopesOfOneTraitGiveTwoContainers() async throws {
      let trait = ContainerTrait.deferred(from: AppContainer.shared) {
        try $0.register(Greeting.self, replacing: true) { Greeting(text: "scoped") }
      }
      let test = try #require(Test.current)
      let first = try await container(in: trait, for: test)
      let second = try await container(in: trait, for: test)
      #expect(first !== second)
      #expect(first.parent === AppContainer.shared && second.parent === AppContainer.shared)
      #expect(try first.resolve(Greeting.self).text == "scoped")
    }

    @Test func aFailingOverrideFailsTheTestBeforeItRuns() async throws {
      let trait = ContainerTrait.deferred(from: AppContainer.shared) {
        // Registered twice in the child, without replacing: a duplicate.
        try $0.register(Greeting.self) { Greeting(text: "first") }
        try $0.register(Greeting.self) { Greeting(text: "duplicate") }
      }
      let test = try #require(Test.current)
      await #expect(throws: DeferredError.self) {
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
          Issue.record("the test body runs only once its overrides are registered")
        }
      }
    }

    /// The container that `trait` gives a test case.
    private func container(in trait: ContainerTrait, for test: Test) async throws -> Container {
      let seen = Seen()
      try await trait.provideScope(for: test, testCase: Test.Case.current) {
        await seen.keep(Container.test)
      }
      return try #require(await seen.container)
    }
  }

  /// What a scope's body saw, handed back to the test.
  actor Seen {
    var container: Container?
    func keep(_ container: Container) { self.container = container }
  }

  /// A service the launch builds after the first frame.
  final class Catalog: Sendable {}

  @Suite(
    .deferredManualLaunch {
      try $0.register(Catalog.self, priority: .afterFirstFrame()) { Catalog() }
    })
  struct ManualLaunches {
    @Test(arguments: 0..<10)
    func eachTestStepsThroughALaunchOfItsOwn(index: Int) async throws {
      let container = Container.test
      let scheduler = Container.testScheduler
      try container.launch()
      try container.firstFrameDrawn()
      await interleave()
      // Only this test's job is queued: no other test's launch shares the scheduler.
      #expect(scheduler.queued == ["build Catalog"])
      #expect(scheduler.runAll() == 1)
      #expect(container.isFullyReady)
    }
  }
#endif
