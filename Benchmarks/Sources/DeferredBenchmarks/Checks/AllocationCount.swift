import Deferred
import Dependencies
import MallocInterposerSwift
import Swinject

/// Heap allocations per resolve of a built singleton, counted by ordo-one's malloc-interposer.
///
/// The interposer replaces `malloc`, `calloc`, `realloc`, `free` and the aligned allocators and
/// counts every call while counting is on. Its library is linked into this binary ahead of the C
/// library, so it serves every allocation of the process: no `LD_PRELOAD` is needed. Where it is
/// not in charge (a platform that links differently), a probe allocation goes uncounted and the
/// check reports nothing rather than a false zero.
enum AllocationCount {
  struct Outcome {
    let contender: String
    let perResolve: Double
  }

  static func check(_ mode: Mode) -> [Outcome]? {
    guard interposerIsCounting() else {
      logProgress("  malloc-interposer is not counting on this platform: no allocation counts")
      return nil
    }
    let resolves = mode.countedResolves
    return [
      Outcome(contender: Contender.deferred, perResolve: deferred(resolves)),
      Outcome(contender: Contender.deferredHandle, perResolve: deferredHandle(resolves)),
      Outcome(contender: Contender.swinject, perResolve: swinject(resolves)),
      Outcome(contender: Contender.dependencies, perResolve: dependencies(resolves)),
    ]
  }

  private static func deferred(_ resolves: Int) -> Double {
    let container = Deferred.Container()
    must { try container.register(Storage.self) { Storage() } }
    blackHole(must { try container.resolve(Storage.self) })
    return perOperation(resolves) {
      must { for _ in 0..<resolves { blackHole(try container.resolve(Storage.self)) } }
    }
  }

  private static func deferredHandle(_ resolves: Int) -> Double {
    let container = Deferred.Container()
    must { try container.register(Storage.self) { Storage() } }
    let storage = must { try container.handle(Storage.self) }
    blackHole(must { try storage.resolve() })
    return perOperation(resolves) {
      must { for _ in 0..<resolves { blackHole(try storage.resolve()) } }
    }
  }

  private static func swinject(_ resolves: Int) -> Double {
    let container = Swinject.Container()
    container.register(Storage.self) { _ in Storage() }.inObjectScope(.container)
    blackHole(container.resolve(Storage.self))
    return perOperation(resolves) {
      for _ in 0..<resolves { blackHole(container.resolve(Storage.self)) }
    }
  }

  private static func dependencies(_ resolves: Int) -> Double {
    let storage = Dependency(\.benchStorage)
    blackHole(storage.wrappedValue)
    return perOperation(resolves) {
      for _ in 0..<resolves { blackHole(storage.wrappedValue) }
    }
  }

  /// Allocations `body` makes, over `operations`.
  private static func perOperation(_ operations: Int, _ body: () -> Void) -> Double {
    Double(allocations(body)) / Double(operations)
  }

  /// The allocations `body` makes: counting is turned on just before it and off just after.
  static func allocations(_ body: () -> Void) -> Int {
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    body()
    MallocInterposerSwift.unhook()
    return MallocInterposerSwift.getStatistics().mallocCount
  }

  /// Whether an object allocated while counting is counted.
  static func interposerIsCounting() -> Bool {
    allocations { blackHole(Storage()) } > 0
  }
}
