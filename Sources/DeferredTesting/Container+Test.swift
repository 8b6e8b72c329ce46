public import Deferred
import Testing

extension Container {
  /// The container a ``ContainerTrait`` made for the running test case.
  @TaskLocal static var scoped: Container?
  /// The manual scheduler of the running test case's container, if a trait made one.
  @TaskLocal static var scopedScheduler: ManualScheduler?

  /// The running test's own container, made by the `.deferred` trait (``ContainerTrait``): a
  /// child container with the test's overrides, which no other test sees.
  ///
  /// ```swift
  /// @Test(.deferred(from: AppContainer.shared) { try $0.register(Network.self) { OfflineNetwork() } })
  /// func queuesEditsOffline() throws {
  ///   let sync = try Container.test.resolve(SyncService.self)
  /// }
  /// ```
  ///
  /// It is a task-local value: the test's task and the tasks it creates see it, code on a
  /// Dispatch queue, a `Thread` or in a detached task does not. Read it once in the test's body
  /// and pass the container on; the container itself keeps its overrides on every thread.
  ///
  /// Where no trait gave a container, reading it records an issue that says why (a test without
  /// the trait, or code off the test's task) and returns a new empty container, so that the
  /// test fails with that message rather than a crash.
  public static var test: Container {
    testContainer { Issue.record(Comment(rawValue: $0)) }
  }

  /// The running test's container, or a new empty one after `report` was told why there is
  /// none.
  static func testContainer(report: (String) -> Void) -> Container {
    if let scoped { return scoped }
    report(missingMessage(for: "Container.test", trait: ".deferred", running: Test.current))
    return Container()
  }

  /// Why `property` has no value, given the test running on this task (`nil` off any test's
  /// task), and what to do.
  static func missingMessage(for property: String, trait: String, running test: Test?) -> String {
    if let test {
      return """
        \(property) is read in the test \(test.name), which has no \(trait) trait: add \(trait), \
        \(trait) { overrides } or \(trait)(from: parent) to the @Test or its @Suite.
        """
    }
    return """
      \(property) is read off any test's task: on a Dispatch queue, a Thread or in a detached \
      task, where Swift Testing's task-local values (the running test, its container) do not \
      reach. So this issue belongs to no test, and the container returned is a new empty one, \
      without the test's registrations. Read `let container = \(property)` in the test's body, \
      where the \(trait) trait set it, and pass that container (or what it resolved) to the \
      code that runs elsewhere: it keeps its overrides on every thread.
      """
  }

  /// The manual scheduler that the running test's container was made with, by the
  /// `.deferredManualLaunch` trait: `runNext()`,
  /// `runAll()` and its `clock` step
  /// through the launch.
  ///
  /// Outside such a test, reading it records an issue that says so, and returns a new
  /// scheduler.
  public static var testScheduler: ManualScheduler {
    if let scopedScheduler { return scopedScheduler }
    if let test = Test.current {
      Issue.record(
        """
        Container.testScheduler is read in the test \(test.name), which has no \
        .deferredManualLaunch trait: add it to the @Test or its @Suite, or make the container \
        with a ManualScheduler yourself.
        """)
    } else {
      Issue.record(
        Comment(
          rawValue: missingMessage(
            for: "Container.testScheduler", trait: ".deferredManualLaunch", running: nil)))
    }
    return ManualScheduler()
  }
}
