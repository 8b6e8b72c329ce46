import ChainServices
import Deferred
import Dependencies
import Swinject

/// The child process of the cold scenarios: registers a chain of `length` distinct services,
/// resolves the last one once, and prints the nanoseconds per service that resolve took.
///
/// Before the clock starts, each library resolves one unrelated service, so that the figure is
/// the cost of resolving services for the first time, not of the library's own first use
/// (per-thread state, reading the environment and so on).
enum ColdChild {
  static func run(_ contender: String, length: Int) -> Int32 {
    let elapsed: UInt64
    switch contender {
    case Contender.deferred:
      let container = Deferred.Container()
      must { try container.register(Warmup.self) { Warmup() } }
      blackHole(must { try container.resolve(Warmup.self) })
      must { try Chain.registerDeferred(length: length, into: container) }
      elapsed = nanoseconds {
        blackHole(must { try Chain.resolveLastDeferred(length: length, from: container) })
      }
    case Contender.swinject:
      let container = Swinject.Container()
      container.register(Warmup.self) { _ in Warmup() }.inObjectScope(.container)
      blackHole(container.resolve(Warmup.self))
      Chain.registerSwinject(length: length, into: container)
      var last: AnyObject?
      elapsed = nanoseconds { last = Chain.resolveLastSwinject(length: length, from: container) }
      guard last != nil else { return fail("Swinject resolved nothing") }
    case Contender.dependencies:
      @Dependency(\.warmup) var warmup
      blackHole(warmup)
      elapsed = nanoseconds { blackHole(Chain.readLastDependency(length: length)) }
    default:
      return fail("no contender named \(contender)")
    }
    print(Double(elapsed) / Double(length))
    return 0
  }
}

/// Reports a child's failure on standard error and returns its exit status.
func fail(_ message: String) -> Int32 {
  logProgress("error: \(message)")
  return 1
}
