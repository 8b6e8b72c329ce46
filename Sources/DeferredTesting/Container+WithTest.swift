public import Deferred
public import Testing

extension Container {
  /// Runs `body` with a container of its own, as the `.deferred` trait runs a test: a child of
  /// `parent` (or of a new empty container) with `overrides` registered in it, read in `body`
  /// as ``test`` or through its argument.
  ///
  /// The traits (``ContainerTrait``) call it for every test case. Call it yourself where the
  /// traits are not available: they need Swift Testing's `TestScoping`, which Swift 6.1 and
  /// later have, so with the Swift 6.0 tools this is how a test gets its container.
  ///
  /// ```swift
  /// @Test func queuesEditsOffline() async throws {
  ///   try await Container.withTestContainer(from: AppContainer.shared) {
  ///     try $0.register(Network.self) { OfflineNetwork() }
  ///   } body: { container in
  ///     let sync = try container.resolve(SyncService.self)  // built with OfflineNetwork
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - parent: The container to inherit from, typically the app's composition root; `nil`,
  ///     the default, for the container an enclosing trait or call gave the test, or else a new
  ///     empty one.
  ///   - sourceLocation: Where the call is written, to name the child in errors.
  ///   - overrides: Registers the test's doubles in its container; none by default.
  ///   - body: The test's code, given the container.
  /// - Returns: What `body` returns.
  /// - Throws: What `overrides` or `body` throws.
  public static func withTestContainer<Result: Sendable>(
    from parent: Container? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ overrides: (Container) throws -> Void = { _ in },
    body: (Container) async throws -> Result
  ) async throws -> Result {
    let base = parent ?? scoped ?? Container()
    return try await withTestContainer(
      child: base.makeChild(fileID: sourceLocation.fileID, line: sourceLocation.line),
      scheduler: scopedScheduler, overrides, body: body)
  }

  /// Runs `body` with `child`, after `overrides`, as ``test`` (and `scheduler` as
  /// ``testScheduler``).
  static func withTestContainer<Result: Sendable>(
    child: Container, scheduler: ManualScheduler?,
    _ overrides: (Container) throws -> Void,
    body: (Container) async throws -> Result
  ) async throws -> Result {
    try overrides(child)
    return try await $scopedScheduler.withValue(scheduler) {
      try await $scoped.withValue(child) {
        try await body(child)
      }
    }
  }
}
