import Dispatch

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The composition root: every service of an app, registered once as a lazy factory, built
/// when first needed and then shared.
///
/// Registering runs nothing. Resolving a service builds it (and what it depends on) the first
/// time, exactly once however many threads ask at the same moment; after that, resolving it is
/// a lock-free read.
///
/// ```swift
/// let container = Container()
/// try container.register(Storage.self) { try FileStorage(directory: cachesURL) }
/// try container.register(Network.self) { URLSessionNetwork() }
/// try container.register(SyncService.self, SyncService.init(storage:network:))
///
/// let sync = try container.resolve(SyncService.self)  // builds Storage, Network, SyncService
/// ```
///
/// A child container, made with ``makeChild(fileID:line:)``, inherits every registration and
/// can override some, which is how tests inject doubles without touching the app's container.
///
/// - Important: Factories run on whichever thread needs the service first, never under a lock
///   of the container. Values must be `Sendable`: they are shared across threads.
public final class Container: Sendable {
  /// The container this one inherits registrations from.
  public let parent: Container?

  /// How long a thread waits for another thread's build of a service before it fails with
  /// ``DeferredError/Code/waitTimedOut``; `nil` waits as long as it takes, and so does a limit
  /// beyond about 146 years. A negative limit does not wait.
  public let waitLimit: Duration?

  let registry = Locked(Registry())
  /// The lookup table as last published, which lookups read without a lock.
  let published = PublishedReference<LookupSnapshot>()
  /// Bumped on every registration, so that children notice what their ancestors added.
  let generation = AtomicWord()
  /// In a child: the ancestors' generations its copies were worked out for, plus one (0: never).
  let copiesGeneration = AtomicWord()
  /// In a child: where it was made, to name it in errors.
  let origin: String?
  /// Set once a descendant has begun a launch: a registration here is then scheduled there too.
  let launchedDescendants = AtomicWord()
  /// Told at each step of a reset (``onResetStep(_:)``), for tests.
  let resetStepObserver = Locked<(@Sendable (String) -> Void)?>(nil)
  /// ``onWait(_:)``.
  let waitObserver = Locked<(@Sendable (WaitEvent) -> Void)?>(nil)
  /// ``onReset(_:)``.
  let resetObservers = ResetObservers()

  /// Runs the builds deferred past the first frame.
  public let scheduler: any LaunchScheduler
  /// Times the launch and every build.
  public let clock: any LaunchClock
  /// How many synchronous deferred builds may run at once.
  public let maxConcurrentBuilds: Int
  /// What past launches cost, if the app keeps a history (`DeferredHistory`); a child shares
  /// its parent's. The container (not a child) records its launch in it once fully ready, in a
  /// background job.
  package let pastLaunches: (any PastLaunches)?
  /// The token this container recorded its launch with; 0 before.
  let historyToken = AtomicWord()

  let launchSchedule: Locked<LaunchSchedule>
  /// ``LaunchSchedule/phase``'s raw value, readable without the lock.
  let launchPhase = AtomicWord(UInt64(LaunchSchedule.Phase.notLaunched.rawValue))
  /// Whether the container is shut down, read relaxed: paths that find it so take the lock.
  var isShutDownRelaxed: Bool {
    launchPhase.loadRelaxed() == UInt64(LaunchSchedule.Phase.shutDown.rawValue)
  }
  let recorder: Recorder
  /// Entered by every scheduled build while it runs, so that shutting down can wait for them.
  let runningBuilds = DispatchGroup()

  /// Creates an empty container.
  ///
  /// ```swift
  /// let container = Container()  // Dispatch queues and the monotonic clock
  ///
  /// // In tests: step through the launch, with time under the test's control.
  /// let scheduler = ManualScheduler()
  /// let container = Container(scheduler: scheduler, clock: scheduler.clock)
  /// ```
  ///
  /// - Parameters:
  ///   - scheduler: Runs the builds deferred past the first frame; Dispatch's global queues by
  ///     default.
  ///   - clock: Times the launch; the system's monotonic clock by default.
  ///   - waitLimit: How long a thread may wait for another thread's build of a service;
  ///     `nil`, the default, waits as long as it takes (a cycle across threads still fails at
  ///     once).
  ///   - maxConcurrentBuilds: How many synchronous deferred builds may run at once; the number
  ///     of active processors by default.
  ///   - recording: What to record of every build, for ``launchReport(criticalShareLimit:)``:
  ///     ``Recording/timings`` by default (well under a microsecond a build).
  public convenience init(
    scheduler: any LaunchScheduler = DispatchScheduler(),
    clock: any LaunchClock = MonotonicClock(),
    waitLimit: Duration? = nil,
    maxConcurrentBuilds: Int? = nil,
    recording: Recording = .timings
  ) {
    self.init(
      scheduler: scheduler, clock: clock, waitLimit: waitLimit,
      maxConcurrentBuilds: maxConcurrentBuilds, recording: recording, pastLaunches: nil)
  }

  /// Creates an empty container that orders its background builds by, and records its
  /// launches in, `pastLaunches`: `DeferredHistory`'s `Container(history:)`.
  package init(
    scheduler: any LaunchScheduler, clock: any LaunchClock, waitLimit: Duration?,
    maxConcurrentBuilds: Int?, recording: Recording, pastLaunches: (any PastLaunches)?
  ) {
    self.pastLaunches = pastLaunches
    self.parent = nil
    self.origin = nil
    self.recorder = Recorder(recording, clock: clock)
    self.scheduler = scheduler
    self.clock = clock
    self.waitLimit = waitLimit
    self.maxConcurrentBuilds = max(1, maxConcurrentBuilds ?? activeProcessorCount())
    self.launchSchedule = Locked(
      LaunchSchedule(width: self.maxConcurrentBuilds, pastLaunches: pastLaunches))
  }

  private init(parent: Container, origin: String) {
    self.parent = parent
    self.origin = origin
    self.recorder = Recorder(parent.recorder.recording, clock: parent.clock)
    self.scheduler = parent.scheduler
    self.clock = parent.clock
    self.waitLimit = parent.waitLimit
    self.maxConcurrentBuilds = parent.maxConcurrentBuilds
    self.pastLaunches = parent.pastLaunches
    self.launchSchedule = Locked(
      LaunchSchedule(width: parent.maxConcurrentBuilds, pastLaunches: parent.pastLaunches))
  }

  /// Makes a container that inherits this one's registrations and may override them.
  ///
  /// A registration in the child replaces the parent's in the child only: the parent and other
  /// children never see it. A singleton that depends, directly or through others, on something
  /// the child registers is built anew in the child, so no double ever hides behind a parent's
  /// instance built with the real service; the other singletons are shared with the parent.
  ///
  /// ```swift
  /// @Test func syncQueuesEditsOffline() throws {
  ///   let container = AppContainer.shared.makeChild()
  ///   try container.register(Network.self) { OfflineNetwork() }
  ///   let sync = try container.resolve(SyncService.self)  // built with OfflineNetwork
  /// }
  /// ```
  ///
  /// Register the overrides before the child resolves anything. Once a child has resolved
  /// something, and while it lives, this container's registrations can no longer be replaced
  /// (``DeferredError/Code/registrationTooLate``, naming the child by where it was made); new
  /// registrations here are still seen by the child.
  ///
  /// A child launched on its own (``launch(_:)`` and ``firstFrameDrawn()`` on the child)
  /// schedules the deferred services it resolves, the parent's among them; a deferred service
  /// the parent registers after the child's first frame is scheduled in the child too, as if
  /// it had been there (built once if the parent schedules it as well).
  ///
  /// - Parameters:
  ///   - fileID: Where the child is made, to name it in errors; the caller's file by default.
  ///   - line: The line where the child is made; the caller's by default.
  /// - Returns: The child.
  public func makeChild(fileID: String = #fileID, line: Int = #line) -> Container {
    Container(parent: self, origin: "\(fileID):\(line)")
  }
}

extension Container {
  /// Every node this container resolves, in order; publishes the table if it is not (in a
  /// child, after working out the copies again if an ancestor registered since).
  @discardableResult
  func currentTable() -> VisibleNodes {
    guard let parent else {
      return registry.withLock { registry in
        if registry.isShutDown { return VisibleNodes() }
        registry.hasPublished = true
        return VisibleNodes(orderedNodes: registry.ordered)
      }
    }
    // Listed with the parent before reading its table: a replacement in the parent either
    // came before the read (and is seen) or finds this child listed (and is refused).
    let listed = registry.withLock { registry in
      defer { registry.listedWithParent = true }
      return registry.listedWithParent
    }
    if !listed { parent.registry.withLock { $0.addPublishedChild(self) } }
    // The generation first: a registration in an ancestor after it is seen by the next lookup.
    let generation = ancestorGeneration()
    let inherited = parent.currentTable()
    let inheritedNodes = inherited.nodes
    return registry.withLock { registry in
      if registry.isShutDown { return VisibleNodes() }
      if !registry.hasPublished || copiesGeneration.loadRelaxed() != generation {
        addCopies(&registry, inherited: inheritedNodes)
        registry.hasPublished = true
        registry.publish(to: self)
        copiesGeneration.storeRelease(generation)
      }
      let own = registry.ordered
      var nodes = inheritedNodes
      for node in own { nodes[node.key] = node }
      for (key, node) in registry.copies { nodes[key] = node }
      // The inherited order with this container's overrides and copies swapped in, then its
      // own new registrations and the copies the ancestors no longer list: a child of this one
      // sees every node this one resolves, never one made without its own overrides.
      var ordered = inherited.orderedNodes.map { nodes[$0.key] ?? $0 }
      ordered += own.filter { inheritedNodes[$0.key] == nil }
      ordered += registry.copies.values.filter { inheritedNodes[$0.key] == nil }
      return VisibleNodes(orderedNodes: ordered)
    }
  }

  /// Copies each inherited node that depends, at any depth, on this child's own registrations.
  private func addCopies(_ registry: inout Registry, inherited: [AnyServiceKey: AnyNode]) {
    let ordered = registry.ordered
    guard !ordered.isEmpty else { return }
    let own = Set(ordered.lazy.map(\.key))
    // Walk reverse edges from this container's own keys: whatever reaches them is affected.
    // A factory that resolves dynamically may need anything, so it counts as affected too.
    var dependents: [AnyServiceKey: [AnyServiceKey]] = [:]
    var affected = own
    var queue = Array(own)
    for (key, node) in inherited where !own.contains(key) {
      guard let dependencies = node.dependencies else {
        if affected.insert(key).inserted { queue.append(key) }
        continue
      }
      for dependency in dependencies {
        // An optional dependency's edge is to the type it wraps.
        let edge =
          inherited[dependency] != nil || own.contains(dependency)
          ? dependency : (dependency.wrappedKey ?? dependency)
        dependents[edge, default: []].append(key)
      }
    }
    while let key = queue.popLast() {
      for dependent in dependents[key] ?? [] where affected.insert(dependent).inserted {
        queue.append(dependent)
      }
    }
    for (key, node) in inherited
    where !own.contains(key) && registry.copies[key] == nil && affected.contains(key) {
      let copy = node.copy(owner: self)
      registry.copies[key] = copy
      registry.insert(copy, publishingTo: self)
    }
  }

  /// Whether this container or one of its ancestors was shut down.
  var isShutDownHere: Bool {
    var container: Container? = self
    while let current = container {
      if current.registry.withLock({ $0.isShutDown }) { return true }
      container = current.parent
    }
    return false
  }

  /// The error for a missing `key`, with the closest registered names, or `shutDown`.
  func missing(_ key: AnyServiceKey, chain: [AnyServiceKey]) -> DeferredError {
    if isShutDownHere {
      return DeferredError(.shutDown, key: key, chain: chain + [key])
    }
    let names = currentTable().nodes.keys.map(\.description)
    return DeferredError(
      .missingService, key: key, chain: chain + [key],
      suggestions: closestNames(to: key.description, in: names))
  }

  /// The tables this container keeps, their slots and node references: the lookup's memory.
  var retainedTables: (tables: Int, slots: Int, nodeReferences: Int) {
    registry.withLock { registry in
      let all = registry.retainedTables
      return (all.count, all.reduce(0) { $0 + $1.capacity }, all.reduce(0) { $0 + $1.count })
    }
  }
}

/// Every node a container resolves, in registration order (the ancestors' first), each once.
struct VisibleNodes {
  var orderedNodes: [AnyNode] = []

  /// The same nodes by key, made when asked for (a launch does not need them).
  var nodes: [AnyServiceKey: AnyNode] {
    Dictionary(orderedNodes.lazy.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
  }
}

private func activeProcessorCount() -> Int {
  Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}
