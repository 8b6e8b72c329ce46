import Deferred
import Dependencies
import Swinject

extension Scenario {
  /// Two threads resolving the same built singleton at once. The figure is per thread: the
  /// wall time until both threads are done over the resolves each made, so it compares with
  /// `resolveCached` directly (equal on two idle cores if the threads never slow each other).
  static let contendedResolve = Scenario(
    name: "contendedResolve",
    title: "two threads resolving one built singleton at once (ns per resolve, per thread)",
    rows: {
      [
        .calibrated(Contender.deferred) {
          let container = Deferred.Container()
          must { try container.register(Storage.self) { Storage() } }
          blackHole(must { try container.resolve(Storage.self) })
          return { iterations in
            contended(iterations: iterations) { count in
              must { for _ in 0..<count { blackHole(try container.resolve(Storage.self)) } }
            }
          }
        },
        .calibrated(Contender.swinject) {
          // Swinject's documented form for use from several threads.
          let container = Swinject.Container()
          container.register(Storage.self) { _ in Storage() }.inObjectScope(.container)
          let resolver = UncheckedSendable(value: container.synchronize())
          blackHole(resolver.value.resolve(Storage.self))
          return { iterations in
            contended(iterations: iterations) { count in
              for _ in 0..<count { blackHole(resolver.value.resolve(Storage.self)) }
            }
          }
        },
        .calibrated(Contender.dependencies) {
          let storage = Dependency(\.benchStorage)
          blackHole(storage.wrappedValue)
          return { iterations in
            contended(iterations: iterations) { count in
              for _ in 0..<count { blackHole(storage.wrappedValue) }
            }
          }
        },
        .calibrated(Contender.lazyMutex) {
          let lazy = LazyStorage()
          blackHole(lazy.storage)
          return { iterations in
            contended(iterations: iterations) { count in
              for _ in 0..<count { blackHole(lazy.storage) }
            }
          }
        },
        .calibrated(Contender.staticLet) {
          blackHole(StaticStorage.storage)
          return { iterations in
            contended(iterations: iterations) { count in
              for _ in 0..<count { blackHole(StaticStorage.storage) }
            }
          }
        },
      ]
    })
}
