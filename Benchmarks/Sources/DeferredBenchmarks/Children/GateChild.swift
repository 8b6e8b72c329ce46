import ChainServices
import Deferred
import Swinject

/// The performance gate's workloads (`Scripts/gate.sh`): each sets up, warms up, then calls one
/// `@inline(never)` function that does the measured work and nothing else, so that callgrind can
/// count the instructions inside it alone (`--toggle-collect` on that function's mangled name,
/// which the script reads from the binary's symbols):
///
///     valgrind --tool=callgrind --collect-atstart=no \
///       --toggle-collect='$s18DeferredBenchmarks17gateResolveCached_5built5county…F' \
///       DeferredBenchmarks _gate resolveCached 100000
///
/// It prints `allocations N` on standard output: the heap allocations the measured function
/// made, counted by malloc-interposer (turned on and off outside the function). The counting
/// itself runs inside the allocator, in the measured function: the script counts the
/// instructions in another process, which counts no allocations (`uncounted`). Every figure depends only on the code and the
/// count, not on the machine's speed or load, as long as the process runs with
/// `SWIFT_DETERMINISTIC_HASHING=1` (hash seeds are random per process otherwise).
///
/// The paths the gate compares have the same workload, with the same count and shape, for
/// Swinject and for the hand-written container (``HandWrittenContainer``), each in a function of
/// its own: the gate's floors are ratios to theirs, counted in the same run.
enum GateChild {
  /// The workloads, with what their count is.
  static let workloads = [
    "resolveCached (resolves)", "resolveHandle (resolves)", "resolveTransient (resolves)",
    "registerCold (services, a multiple of \(Chain.chunk) up to \(Chain.coldLength))",
    "coldFirstResolve (chain length, a multiple of \(Chain.chunk) up to \(Chain.coldLength))",
    "launch (services)", "resolveEach (services)",
    // The peers, on the same paths.
    "swinjectResolveCached (resolves)", "swinjectResolveTransient (resolves)",
    "swinjectRegisterCold (services)", "swinjectColdFirstResolve (chain length)",
    "handWrittenResolveCached (resolves)", "handWrittenResolveTransient (resolves)",
    "handWrittenRegisterCold (services)", "handWrittenColdFirstResolve (chain length)",
    // Not gated: a transient through a handle, the warm registration of known types.
    "resolveTransientHandle (resolves)",
    "register (services, a multiple of \(Chain.chunk))",
    // References, not gated: the same loop as resolveCached over hand-written shared values.
    "staticLet (reads)", "lazyMutex (reads)", "handleResolve (reads)",
    // The other forms of a cached resolve, not gated: by an unnamed key, by a named key,
    // `require`.
    "resolveKeyCached (resolves)", "resolveNamedCached (resolves)", "requireCached (resolves)",
    // A reference, not gated: the transient's direct code, `Clock(storage)`.
    "transientDirect (makings)",
  ]

  /// Sets up `workload`, runs its measured function once over `count` operations, and prints
  /// the allocations it made unless `countingAllocations` is false; returns the exit status.
  static func run(_ workload: String, count: Int, countingAllocations: Bool = true) -> Int32 {
    guard count > 0 else { return fail("the count must be positive") }
    guard !countingAllocations || AllocationCount.interposerIsCounting() else {
      return fail("malloc-interposer is not counting: no allocation figures")
    }
    func allocationsOf(_ body: () -> Void) -> Int {
      guard countingAllocations else {
        body()
        return 0
      }
      return AllocationCount.allocations(body)
    }
    let allocations: Int
    switch workload {
    case "resolveCached":
      let container = Deferred.Container()
      must { try container.register(Storage.self) { Storage() } }
      let built = must { try container.resolve(Storage.self) }
      allocations = allocationsOf {
        gateResolveCached(container, built: built, count: count)
      }
    case "resolveHandle":
      let container = Deferred.Container()
      must { try container.register(Storage.self) { Storage() } }
      let handle = must { try container.handle(Storage.self) }
      let built = must { try handle.resolve() }
      allocations = allocationsOf {
        gateResolveHandle(handle, built: built, count: count)
      }
    case "handleResolve":
      let container = Deferred.Container()
      must { try container.register(Storage.self) { Storage() } }
      let handle = must { try container.handle(Storage.self) }
      let built = must { try handle.resolve() }
      allocations = allocationsOf {
        gateHandleResolve(handle, built: built, count: count)
      }
    case "resolveKeyCached", "resolveNamedCached", "requireCached":
      let container = Deferred.Container()
      let key = ServiceKey<Storage>(name: workload == "resolveNamedCached" ? "named" : nil)
      must { try container.register(key) { Storage() } }
      let built = must { try container.resolve(key) }
      allocations = allocationsOf {
        switch workload {
        case "requireCached": gateRequireCached(container, built: built, count: count)
        default: gateResolveKeyCached(container, key, built: built, count: count)
        }
      }
    case "staticLet":
      let built = StaticStorage.storage
      allocations = allocationsOf { gateStaticLet(built: built, count: count) }
    case "lazyMutex":
      let lazy = LazyStorage()
      let built = lazy.storage
      allocations = allocationsOf {
        gateLazyMutex(lazy, built: built, count: count)
      }
    case "resolveTransient":
      let container = Deferred.Container()
      must { try container.register(Storage.self) { Storage() } }
      must { try container.register(Clock.self, scope: .transient, Clock.init) }
      blackHole(must { try container.resolve(Clock.self) })
      allocations = allocationsOf { gateResolveTransient(container, count: count) }
    case "resolveTransientHandle":
      let container = Deferred.Container()
      must { try container.register(Storage.self) { Storage() } }
      must { try container.register(Clock.self, scope: .transient, Clock.init) }
      let handle = must { try container.handle(Clock.self) }
      // Warmed up as resolveTransient is: the storage built, the transient made once.
      blackHole(must { try handle.resolve() })
      allocations = allocationsOf {
        gateResolveTransientHandle(handle, count: count)
      }
    case "transientDirect":
      let storage = Storage()
      allocations = allocationsOf { gateTransientDirect(storage, count: count) }
    case "register":
      guard validChain(count) else { return fail("no chain of \(count) services") }
      // The types are known to the runtime already (their metadata made, their conformances
      // looked up): what is counted is the container's work, not the runtime's first use.
      must { try Chain.registerDeferred(length: count, into: Deferred.Container()) }
      let container = Deferred.Container()
      allocations = allocationsOf { gateRegister(container, count: count) }
    case "registerCold":
      // As the `_register-cold` child: types the process has not seen before, after the
      // library's own first use (one unrelated service registered and resolved).
      guard validColdChain(count) else { return fail("no cold chain of \(count) services") }
      let container = Deferred.Container()
      must { try container.register(Warmup.self) { Warmup() } }
      blackHole(must { try container.resolve(Warmup.self) })
      allocations = allocationsOf { gateRegisterCold(container, count: count) }
    case "coldFirstResolve":
      // As the `_cold-first-resolve` child: the library's own first use is not counted.
      guard validColdChain(count) else { return fail("no cold chain of \(count) services") }
      let container = Deferred.Container()
      must { try container.register(Warmup.self) { Warmup() } }
      blackHole(must { try container.resolve(Warmup.self) })
      must { try Chain.registerDeferred(length: count, into: container) }
      allocations = allocationsOf {
        gateColdFirstResolve(container, length: count)
      }
    case "launch":
      // A launch of another graph first, so that the first use of launching is not counted
      // (written out here: a call of the measured function would be counted).
      let warmup = ManualScheduler()
      let warm = LaunchGraph.make(count: count, scheduler: warmup)
      must {
        try warm.launch()
        try warm.firstFrameDrawn()
      }
      warm.appIsIdle()
      warmup.runAll()
      let scheduler = ManualScheduler()
      let container = LaunchGraph.make(count: count, scheduler: scheduler)
      allocations = allocationsOf { gateLaunch(container, scheduler) }
      guard container.isFullyReady else { return fail("the launch did not finish") }
    case "resolveEach":
      let keys = (0..<count).map(LaunchGraph.key)
      let warm = LaunchGraph.make(count: count, scheduler: ManualScheduler())
      must { for key in keys { blackHole(try warm.resolve(key)) } }
      let container = LaunchGraph.make(count: count, scheduler: ManualScheduler())
      allocations = allocationsOf { gateResolveEach(container, keys) }
    case "swinjectResolveCached":
      // A plain container, its fastest form (for use from one thread), as the scenarios'.
      let container = Swinject.Container()
      container.register(Storage.self) { _ in Storage() }.inObjectScope(.container)
      guard let built = container.resolve(Storage.self) else { return fail("no Storage") }
      allocations = allocationsOf {
        gateSwinjectResolveCached(container, built: built, count: count)
      }
    case "swinjectResolveTransient":
      let container = Swinject.Container()
      container.register(Storage.self) { _ in Storage() }.inObjectScope(.container)
      container.register(Clock.self) { Clock($0.resolve(Storage.self)!) }
        .inObjectScope(.transient)
      blackHole(container.resolve(Clock.self))
      allocations = allocationsOf {
        gateSwinjectResolveTransient(container, count: count)
      }
    case "swinjectRegisterCold":
      guard validColdChain(count) else { return fail("no cold chain of \(count) services") }
      let container = Swinject.Container()
      container.register(Warmup.self) { _ in Warmup() }.inObjectScope(.container)
      blackHole(container.resolve(Warmup.self))
      allocations = allocationsOf {
        gateSwinjectRegisterCold(container, count: count)
      }
    case "swinjectColdFirstResolve":
      guard validColdChain(count) else { return fail("no cold chain of \(count) services") }
      let container = Swinject.Container()
      container.register(Warmup.self) { _ in Warmup() }.inObjectScope(.container)
      blackHole(container.resolve(Warmup.self))
      Chain.registerSwinject(length: count, into: container)
      allocations = allocationsOf {
        gateSwinjectColdFirstResolve(container, length: count)
      }
    case "handWrittenResolveCached":
      let container = HandWrittenContainer()
      container.register(Storage.self) { _ in Storage() }
      let built = container.resolve(Storage.self)
      allocations = allocationsOf {
        gateHandWrittenResolveCached(container, built: built, count: count)
      }
    case "handWrittenResolveTransient":
      let container = HandWrittenContainer()
      container.register(Storage.self) { _ in Storage() }
      container.registerTransient(Clock.self) { Clock($0.resolve(Storage.self)) }
      blackHole(container.resolve(Clock.self))
      allocations = allocationsOf {
        gateHandWrittenResolveTransient(container, count: count)
      }
    case "handWrittenRegisterCold":
      guard validColdChain(count) else { return fail("no cold chain of \(count) services") }
      let container = HandWrittenContainer()
      container.register(Warmup.self) { _ in Warmup() }
      blackHole(container.resolve(Warmup.self))
      allocations = allocationsOf {
        gateHandWrittenRegisterCold(container, count: count)
      }
    case "handWrittenColdFirstResolve":
      guard validColdChain(count) else { return fail("no cold chain of \(count) services") }
      let container = HandWrittenContainer()
      container.register(Warmup.self) { _ in Warmup() }
      blackHole(container.resolve(Warmup.self))
      Chain.registerHandWritten(length: count, into: container)
      allocations = allocationsOf {
        gateHandWrittenColdFirstResolve(container, length: count)
      }
    default:
      return fail("no workload named \(workload): \(workloads.joined(separator: ", "))")
    }
    if countingAllocations { print("allocations \(allocations)") }
    return 0
  }

  private static func validChain(_ length: Int) -> Bool {
    length <= Chain.maxLength && length % Chain.chunk == 0
  }

  /// Whether every container has a chain of `length` services: the hand-written container's
  /// and the resolver form's are the shortest.
  private static func validColdChain(_ length: Int) -> Bool {
    length <= Chain.coldLength && length % Chain.chunk == 0
  }
}

// The measured functions. Their names are what the gate script toggles callgrind's collection
// on (the script checks that each is one symbol, not merged with another): keep them never
// inlined, and call each only once a process (collection is on inside every call).

/// `count` resolves of a singleton built already, each checked to be `built` (one comparison a
/// resolve, which also keeps the optimiser from merging this function with
/// ``gateResolveTransient(_:count:)`` into one that takes the type as an argument).
@inline(never)
func gateResolveCached(_ container: Deferred.Container, built: Storage, count: Int) {
  must {
    for _ in 0..<count {
      let storage = try container.resolve(Storage.self)
      if storage !== built { fatalError("a cached resolve returned another instance") }
      blackHole(storage)
    }
  }
}

/// `count` resolves by `key` of a singleton built already, each checked to be `built` (the
/// `resolveKeyCached` and `resolveNamedCached` workloads).
@inline(never)
func gateResolveKeyCached(
  _ container: Deferred.Container, _ key: ServiceKey<Storage>, built: Storage, count: Int
) {
  must {
    for _ in 0..<count {
      let storage = try container.resolve(key)
      if storage !== built { fatalError("a cached resolve returned another instance") }
      blackHole(storage)
    }
  }
}

/// `count` `require`s of a singleton built already, each checked to be `built`.
@inline(never)
func gateRequireCached(_ container: Deferred.Container, built: Storage, count: Int) {
  for _ in 0..<count {
    let storage = container.require(Storage.self)
    if storage !== built { fatalError("a cached require returned another instance") }
    blackHole(storage)
  }
}

/// `count` reads of a singleton built already through a handle looked up beforehand, read in
/// place (`withValue`), each checked to be `built`: the same consumer as ``gateStaticLet``'s.
@inline(never)
func gateResolveHandle(_ handle: ServiceHandle<Storage>, built: Storage, count: Int) {
  must {
    for _ in 0..<count {
      try handle.withValue { storage in
        if storage !== built { fatalError("a handle returned another instance") }
        blackHole(storage)
      }
    }
  }
}

/// `count` copies of a singleton built already through a handle's `resolve()`, each checked to
/// be `built` (not gated: the copy's retain and release beside ``gateResolveHandle``).
@inline(never)
func gateHandleResolve(_ handle: ServiceHandle<Storage>, built: Storage, count: Int) {
  must {
    for _ in 0..<count {
      let storage = try handle.resolve()
      if storage !== built { fatalError("a handle returned another instance") }
      blackHole(storage)
    }
  }
}

/// `count` reads of a global `static let` made already, each checked to be `built`: the
/// reference the handle is compared with (not gated).
@inline(never)
func gateStaticLet(built: Storage, count: Int) {
  for _ in 0..<count {
    let storage = StaticStorage.storage
    if storage !== built { fatalError("a static let returned another instance") }
    blackHole(storage)
  }
}

/// `count` reads of a lazy value behind a mutex, made already, each checked to be `built` (not
/// gated).
@inline(never)
func gateLazyMutex(_ lazy: LazyStorage, built: Storage, count: Int) {
  for _ in 0..<count {
    let storage = lazy.storage
    if storage !== built { fatalError("a lazy value returned another instance") }
    blackHole(storage)
  }
}

/// `count` resolves of a transient service built from a singleton built already.
@inline(never)
func gateResolveTransient(_ container: Deferred.Container, count: Int) {
  must { for _ in 0..<count { blackHole(try container.resolve(Clock.self)) } }
}

/// `count` makings of the same transient service through a handle looked up beforehand (its
/// dependency built already): the handle's making at once.
@inline(never)
func gateResolveTransientHandle(_ handle: ServiceHandle<Clock>, count: Int) {
  must { for _ in 0..<count { blackHole(try handle.resolve()) } }
}

/// `count` makings of a ``Clock`` by hand, from the storage: the direct code the transient
/// paths are measured against (not gated).
@inline(never)
func gateTransientDirect(_ storage: Storage, count: Int) {
  for _ in 0..<count { blackHole(Clock(storage)) }
}

/// Registers the first `count` chain services, each with the previous as its parameter.
@inline(never)
func gateRegister(_ container: Deferred.Container, count: Int) {
  must { try Chain.registerDeferred(length: count, into: container) }
}

/// Registers the first `count` chain services in a process that has not seen their types
/// before, each with the previous as its parameter (the `blackHole` keeps its body apart from
/// ``gateRegister(_:count:)``'s, which the optimiser would merge with it).
@inline(never)
func gateRegisterCold(_ container: Deferred.Container, count: Int) {
  must { try Chain.registerDeferred(length: count, into: container) }
  blackHole(container)
}

/// The first resolve of the last of a chain of `length` services, in a process that has not
/// resolved them before.
@inline(never)
func gateColdFirstResolve(_ container: Deferred.Container, length: Int) {
  blackHole(must { try Chain.resolveLastDeferred(length: length, from: container) })
}

/// A whole launch on the calling thread: the critical services, the first frame, idleness, and
/// every job the scheduler is handed, until none is left.
@inline(never)
func gateLaunch(_ container: Deferred.Container, _ scheduler: ManualScheduler) {
  must {
    try container.launch()
    try container.firstFrameDrawn()
  }
  container.appIsIdle()
  scheduler.runAll()
}

/// What ``gateLaunch(_:_:)`` builds, resolved one by one with no launch phases.
@inline(never)
func gateResolveEach(_ container: Deferred.Container, _ keys: [ServiceKey<LaunchGraph.Node>]) {
  must { for key in keys { blackHole(try container.resolve(key)) } }
}

// The peers' measured functions: the same work as Deferred's above, in Swinject and in the
// hand-written container. Each ends with a `blackHole` of its container, so that none has the
// body of a function elsewhere in the module (the optimiser would merge the two).

/// `count` resolves of a Swinject `.container` singleton built already, each checked to be
/// `built`.
@inline(never)
func gateSwinjectResolveCached(_ container: Swinject.Container, built: Storage, count: Int) {
  for _ in 0..<count {
    let storage = container.resolve(Storage.self)
    if storage !== built { fatalError("a cached resolve returned another instance") }
    blackHole(storage)
  }
  blackHole(container)
}

/// `count` resolves of a Swinject `.transient` service built from a singleton built already.
@inline(never)
func gateSwinjectResolveTransient(_ container: Swinject.Container, count: Int) {
  for _ in 0..<count { blackHole(container.resolve(Clock.self)) }
  blackHole(container)
}

/// Registers the first `count` chain services in Swinject, in a process that has not seen their
/// types before.
@inline(never)
func gateSwinjectRegisterCold(_ container: Swinject.Container, count: Int) {
  Chain.registerSwinject(length: count, into: container)
  blackHole(container)
}

/// Swinject's first resolve of the last of a chain of `length` services.
@inline(never)
func gateSwinjectColdFirstResolve(_ container: Swinject.Container, length: Int) {
  guard let last = Chain.resolveLastSwinject(length: length, from: container) else {
    fatalError("Swinject resolved nothing")
  }
  blackHole(last)
  blackHole(container)
}

/// `count` resolves of a hand-written container's singleton built already, each checked to be
/// `built`.
@inline(never)
func gateHandWrittenResolveCached(_ container: HandWrittenContainer, built: Storage, count: Int) {
  for _ in 0..<count {
    let storage = container.resolve(Storage.self)
    if storage !== built { fatalError("a cached resolve returned another instance") }
    blackHole(storage)
  }
  blackHole(container)
}

/// `count` resolves of a hand-written container's transient service built from a singleton
/// built already.
@inline(never)
func gateHandWrittenResolveTransient(_ container: HandWrittenContainer, count: Int) {
  for _ in 0..<count { blackHole(container.resolve(Clock.self)) }
  blackHole(container)
}

/// Registers the first `count` chain services in the hand-written container, in a process that
/// has not seen their types before.
@inline(never)
func gateHandWrittenRegisterCold(_ container: HandWrittenContainer, count: Int) {
  Chain.registerHandWritten(length: count, into: container)
  blackHole(container)
}

/// The hand-written container's first resolve of the last of a chain of `length` services.
@inline(never)
func gateHandWrittenColdFirstResolve(_ container: HandWrittenContainer, length: Int) {
  blackHole(Chain.resolveLastHandWritten(length: length, from: container))
  blackHole(container)
}
