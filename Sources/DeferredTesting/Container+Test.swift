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
  /// Outside a test with the trait, reading it records an issue that says so, and returns a new
  /// empty container, so that the test fails with that message rather than a crash.
  public static var test: Container {
    if let scoped { return scoped }
    Issue.record(
      """
      Container.test is read outside a test that has the .deferred trait: add \
      .deferred, .deferred { overrides } or .deferred(from: parent) to the @Test or its @Suite.
      """)
    return Container()
  }

  /// The manual scheduler that the running test's container was made with, by the
  /// `.deferredManualLaunch` trait: ``Deferred/ManualScheduler/runNext()``,
  /// ``Deferred/ManualScheduler/runAll()`` and its ``Deferred/ManualScheduler/clock`` step
  /// through the launch.
  ///
  /// Outside such a test, reading it records an issue that says so, and returns a new
  /// scheduler.
  public static var testScheduler: ManualScheduler {
    if let scopedScheduler { return scopedScheduler }
    Issue.record(
      """
      Container.testScheduler is read outside a test that has the .deferredManualLaunch trait: \
      add it to the @Test or its @Suite, or make the container with a ManualScheduler yourself.
      """)
    return ManualScheduler()
  }
}
