import Dispatch
import Synchronization

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
/// A child container, made with ``makeChild()``, inherits every registration and can override
/// some, which is how tests inject doubles without touching the app's container.
///
/// - Important: Factories run on whichever thread needs the service first, never under a lock
///   of the container. Values must be `Sendable`: they are shared across threads.
public final class Container: Sendable {
  /// The container this one inherits registrations from.
  public let parent: Container?

  /// How long a thread waits for another thread's build of a service before it fails with
  /// ``DeferredError/Code/waitTimedOut``; `nil` waits as long as it takes.
  public let waitLimit: Duration?

  let registry = Locked(Registry())
  let published = Atomic<Unmanaged<LookupTable>?>(nil)
  /// Bumped on every registration, so that children notice what their ancestors added.
  let generation = Atomic<Int>(0)
  /// Told when a thread is about to wait for another thread's build of a service
  /// (``onWait(_:)``).
  let waitObserver = Locked<(@Sendable (WaitEvent) -> Void)?>(nil)

  /// Runs the builds deferred past the first frame.
  public let scheduler: any LaunchScheduler
  /// Times the launch and every build.
  public let clock: any LaunchClock
  /// How many synchronous deferred builds may run at once.
  public let maxConcurrentBuilds: Int

  /// The launch and its deferred builds, as one state machine.
  let launchSchedule: Locked<LaunchSchedule>
  /// ``LaunchSchedule/phase``, readable without the lock (registration reads it).
  let launchPhase = Atomic<UInt8>(LaunchSchedule.Phase.notLaunched.rawValue)
  /// Captures what every build cost.
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
  public init(
    scheduler: any LaunchScheduler = DispatchScheduler(),
    clock: any LaunchClock = MonotonicClock(),
    waitLimit: Duration? = nil,
    maxConcurrentBuilds: Int? = nil,
    recording: Recording = .timings
  ) {
    self.parent = nil
    self.recorder = Recorder(recording, clock: clock)
    self.scheduler = scheduler
    self.clock = clock
    self.waitLimit = waitLimit
    self.maxConcurrentBuilds = max(1, maxConcurrentBuilds ?? activeProcessorCount())
    self.launchSchedule = Locked(LaunchSchedule(width: self.maxConcurrentBuilds))
  }

  private init(parent: Container) {
    self.parent = parent
    self.recorder = Recorder(parent.recorder.recording, clock: parent.clock)
    self.scheduler = parent.scheduler
    self.clock = parent.clock
    self.waitLimit = parent.waitLimit
    self.maxConcurrentBuilds = parent.maxConcurrentBuilds
    self.launchSchedule = Locked(LaunchSchedule(width: parent.maxConcurrentBuilds))
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
  /// Register the overrides before the child resolves anything.
  public func makeChild() -> Container {
    Container(parent: self)
  }
}

extension Container {
  /// The node for `type` and `name`, read lock-free from the published table.
  @inline(__always)
  func lookup(_ type: ObjectIdentifier, _ name: String?) -> Unmanaged<AnyNode>? {
    let bits = UInt(bitPattern: type)
    if let table = published.load(ordering: .acquiring) {
      if let node = table._withUnsafeGuaranteedRef({ $0.find(bits, name) }) { return node }
    }
    return lookupSlow(bits, name)
  }

  /// The resolve hot path: the value of the built singleton registered for `type` and `name`,
  /// or `nil` if it is not built (or not a singleton, or not registered).
  ///
  /// It is not generic, so it needs no type metadata at run time; the inlined generic caller
  /// only copies the value out, as the type it looked the service up by.
  @usableFromInline
  func readyValue(_ type: ObjectIdentifier, _ name: String?) -> ValueReference? {
    guard let found = lookup(type, name) else { return nil }
    return found._withUnsafeGuaranteedRef { node in
      guard let reference = node.value.reference else { return nil }
      if !node.wasResolved.load(ordering: .relaxed) {
        node.wasResolved.store(true, ordering: .relaxed)
      }
      return reference
    }
  }

  /// Publishes a table if there is none, or a new one if an ancestor has registered since.
  private func lookupSlow(_ bits: UInt, _ name: String?) -> Unmanaged<AnyNode>? {
    currentTable().find(bits, name)
  }

  func node(for key: AnyServiceKey) -> AnyNode? {
    lookup(key.typeID, key.name)?.takeUnretainedValue()
  }

  /// The newest table, made anew when this container or an ancestor registered since the last.
  @discardableResult
  func currentTable() -> LookupTable {
    let generations = ancestorGenerations()
    return registry.withLock { registry in
      if registry.isShutDown { return LookupTable.empty }
      if let table = registry.current, published.load(ordering: .acquiring) != nil,
        registry.ancestorGenerations == generations
      {
        return table
      }
      let order = (parent?.currentTable().order ?? []) + registry.order
      let table = LookupTable(visibleNodes(&registry), order: order)
      registry.tables.append(table)
      registry.ancestorGenerations = generations
      published.store(.passUnretained(table), ordering: .releasing)
      return table
    }
  }

  private func ancestorGenerations() -> [Int] {
    var result: [Int] = []
    var ancestor = parent
    while let container = ancestor {
      result.append(container.generation.load(ordering: .acquiring))
      ancestor = container.parent
    }
    return result
  }

  /// Every node this container resolves: its own, the parent's it shares, and the parent's it
  /// builds anew because they depend on one of its own registrations.
  private func visibleNodes(_ registry: inout Registry) -> [AnyServiceKey: AnyNode] {
    guard let parent else { return registry.own }
    let inherited = parent.currentTable().nodes
    var visible = registry.own
    guard !registry.own.isEmpty else { return inherited }
    // Walk reverse edges from this container's own keys: whatever reaches them is affected.
    // A factory that resolves dynamically may need anything, so it counts as affected too.
    var dependents: [AnyServiceKey: [AnyServiceKey]] = [:]
    var affected = Set(registry.own.keys)
    var queue = Array(registry.own.keys)
    for (key, node) in inherited where registry.own[key] == nil {
      guard let dependencies = node.dependencies else {
        if affected.insert(key).inserted { queue.append(key) }
        continue
      }
      for dependency in dependencies { dependents[dependency, default: []].append(key) }
    }
    while let key = queue.popLast() {
      for dependent in dependents[key] ?? [] where affected.insert(dependent).inserted {
        queue.append(dependent)
      }
    }
    for (key, node) in inherited where registry.own[key] == nil {
      if affected.contains(key) {
        let copy = registry.copies[key] ?? node.copy(owner: self)
        registry.copies[key] = copy
        visible[key] = copy
      } else {
        visible[key] = node
      }
    }
    return visible
  }

  /// The error for a missing `key`, needed by `chain`, with the closest registered names.
  func missing(_ key: AnyServiceKey, chain: [AnyServiceKey]) -> DeferredError {
    if registry.withLock({ $0.isShutDown }) {
      return DeferredError(.shutDown, key: key, chain: chain + [key])
    }
    let names = currentTable().nodes.keys.map(\.description)
    return DeferredError(
      .missingService, key: key, chain: chain + [key],
      suggestions: closestNames(to: key.description, in: names))
  }
}

private func activeProcessorCount() -> Int {
  Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}
