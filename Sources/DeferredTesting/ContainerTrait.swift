// The traits scope tests through `TestScoping`, which Swift Testing has from Swift 6.1 on.
#if compiler(>=6.1)
  public import Deferred
  public import Testing

  /// A Swift Testing trait that gives a test, or each test of a suite, a container of its own: a
  /// child of the app's container with the test's overrides, read through ``Deferred/Container/test``.
  ///
  /// A child container inherits every registration of its parent, and what the child registers
  /// overrides the parent's in the child only (`makeChild()`). So
  /// tests running in parallel share the app's composition root but never an override: each test
  /// case gets a child made for it, with the overrides applied, before it starts, and drops it
  /// when it ends.
  ///
  /// ```swift
  /// @Suite(.deferred(from: AppContainer.make()) { try $0.register(Network.self) { OfflineNetwork() } })
  /// struct SyncTests {
  ///   @Test func queuesEditsOffline() throws {
  ///     let sync = try Container.test.resolve(SyncService.self)  // built with OfflineNetwork
  ///   }
  ///
  ///   @Test(.deferred { try $0.register(Clock.self) { FixedClock() } })
  ///   func stampsEdits() throws {
  ///     // The suite's override and this test's, in a child of the suite's child.
  ///   }
  /// }
  /// ```
  ///
  /// Applied to a suite, the trait applies to every test in it, nested suites included, and to
  /// every case of a parameterized test: each gets a child of its own. Traits nest: a test's own
  /// `.deferred { ... }` without a parent makes its child from the container an enclosing trait
  /// gave it.
  ///
  /// A launch step by step, with no thread and no real time, needs the manual scheduler and clock
  /// of `Deferred` (`ManualScheduler`, `ManualClock`):
  /// `.deferredManualLaunch { ... }` makes each test's container with a fresh
  /// `ManualScheduler`, which the test reads as ``Deferred/Container/testScheduler``.
  ///
  /// - Important: ``Deferred/Container/test`` is a task-local value: it is set for the test's own
  ///   task and the tasks it creates, not for Dispatch queues or detached tasks. Read it once at
  ///   the start of the test and pass the container on; the container itself holds its overrides
  ///   on every thread.
  ///
  /// - Note: The trait scopes tests through Swift Testing's `TestScoping`, which Swift 6.1 and
  ///   later have (Xcode 16.3 and later): with the Swift 6.0 tools the traits are not compiled,
  ///   and a test gets its container from
  ///   ``Deferred/Container/withTestContainer(from:sourceLocation:_:body:)``.
  public struct ContainerTrait: TestTrait, SuiteTrait, TestScoping {
    /// Where each test's container comes from.
    enum Base: Sendable {
      /// A child of the enclosing trait's container, or of a new empty container.
      case enclosing
      /// A child of the container this makes.
      case parent(@Sendable () throws -> Container)
      /// A new container with a manual scheduler.
      case manualLaunch
    }

    let base: Base
    let overrides: @Sendable (Container) throws -> Void
    /// Where the trait was written, to name the child in errors.
    let sourceLocation: SourceLocation

    /// Applied to a suite, the trait applies to every test and nested suite in it.
    public var isRecursive: Bool { true }

    /// One scope for each test case: a suite has none of its own, so that no two tests share a
    /// child.
    ///
    /// - Parameters:
    ///   - test: The test or suite.
    ///   - testCase: The test case, or `nil` for a suite or a parameterized test as a whole.
    /// - Returns: This trait for a test case, `nil` otherwise.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
      testCase == nil ? nil : self
    }

    /// Runs the test case with a container of its own as ``Deferred/Container/test``.
    ///
    /// - Parameters:
    ///   - test: The test.
    ///   - testCase: The test case.
    ///   - function: The test case's body.
    public func provideScope(
      for test: Test, testCase: Test.Case?,
      performing function: @Sendable () async throws -> Void
    ) async throws {
      let parent: Container
      var scheduler = Container.scopedScheduler
      switch base {
      case .enclosing:
        parent = Container.scoped ?? Container()
      case .parent(let make):
        parent = try make()
      case .manualLaunch:
        let manual = ManualScheduler()
        scheduler = manual
        parent = Container(scheduler: manual, clock: manual.clock)
      }
      let child = parent.makeChild(fileID: sourceLocation.fileID, line: sourceLocation.line)
      try await Container.withTestContainer(child: child, scheduler: scheduler, overrides) { _ in
        try await function()
      }
    }
  }

  extension Trait where Self == ContainerTrait {
    /// Each test gets a container of its own: a child of the enclosing trait's container, or of
    /// a new empty container.
    ///
    /// ```swift
    /// @Test(.deferred) func buildsOnce() throws {
    ///   try Container.test.register(Counter.self) { Counter() }
    /// }
    /// ```
    public static var deferred: Self {
      ContainerTrait(base: .enclosing, overrides: { _ in }, sourceLocation: #_sourceLocation)
    }

    /// Each test gets a child of the enclosing trait's container (or of a new empty container),
    /// with `overrides` registered in it.
    ///
    /// ```swift
    /// @Test(.deferred { try $0.register(Network.self) { OfflineNetwork() } })
    /// func queuesEditsOffline() throws { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - overrides: Registers the test's doubles in its container.
    ///   - sourceLocation: Where the trait is written, to name the child in errors.
    /// - Returns: The trait.
    public static func deferred(
      sourceLocation: SourceLocation = #_sourceLocation,
      _ overrides: @escaping @Sendable (Container) throws -> Void
    ) -> Self {
      ContainerTrait(base: .enclosing, overrides: overrides, sourceLocation: sourceLocation)
    }

    /// Each test gets a child of `parent`, with `overrides` registered in it.
    ///
    /// ```swift
    /// @Suite(.deferred(from: AppContainer.shared) { try $0.register(Network.self) { OfflineNetwork() } })
    /// struct SyncTests { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - parent: The container to inherit from, typically the app's composition root; read
    ///     once for each test.
    ///   - sourceLocation: Where the trait is written, to name the child in errors.
    ///   - overrides: Registers the test's doubles in its container; none by default.
    /// - Returns: The trait.
    public static func deferred(
      from parent: @autoclosure @escaping @Sendable () throws -> Container,
      sourceLocation: SourceLocation = #_sourceLocation,
      _ overrides: @escaping @Sendable (Container) throws -> Void = { _ in }
    ) -> Self {
      ContainerTrait(base: .parent(parent), overrides: overrides, sourceLocation: sourceLocation)
    }

    /// Each test gets a child of a new container whose deferred builds wait for the test: a
    /// fresh `ManualScheduler` and its `ManualClock`, read as
    /// ``Deferred/Container/testScheduler``.
    ///
    /// ```swift
    /// @Test(.deferredManualLaunch { try AppServices.register(in: $0) })
    /// func syncIsBuiltAfterTheFirstFrame() throws {
    ///   let container = Container.test
    ///   try container.launch()
    ///   try container.firstFrameDrawn()
    ///   Container.testScheduler.runAll()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - sourceLocation: Where the trait is written, to name the child in errors.
    ///   - overrides: Registers the test's services in its container; none by default.
    /// - Returns: The trait.
    public static func deferredManualLaunch(
      sourceLocation: SourceLocation = #_sourceLocation,
      _ overrides: @escaping @Sendable (Container) throws -> Void = { _ in }
    ) -> Self {
      ContainerTrait(base: .manualLaunch, overrides: overrides, sourceLocation: sourceLocation)
    }
  }
#endif
