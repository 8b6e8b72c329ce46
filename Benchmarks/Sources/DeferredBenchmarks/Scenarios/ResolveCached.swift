import ChainServices
import Deferred
import Dependencies
import Swinject

extension Scenario {
  /// Resolving a singleton that is built already: what most resolves in an app are.
  static let resolveCached = Scenario(
    name: "resolveCached", title: "resolve a singleton built already (ns per resolve)",
    rows: {
      [
        .calibrated(Contender.deferred) {
          let container = Deferred.Container()
          must { try container.register(Storage.self) { Storage() } }
          blackHole(must { try container.resolve(Storage.self) })
          return { iterations in
            nanoseconds {
              must { for _ in 0..<iterations { blackHole(try container.resolve(Storage.self)) } }
            }
          }
        },
        .calibrated(Contender.deferredHandle) {
          // A handle looked up once, as a view model keeps one: read in place in the loop,
          // the service handed to the same consumer as every other row's.
          let container = Deferred.Container()
          must { try container.register(Storage.self) { Storage() } }
          let storage = must { try container.handle(Storage.self) }
          must { try storage.withValue { blackHole($0) } }
          return { iterations in
            nanoseconds {
              must { for _ in 0..<iterations { try storage.withValue { blackHole($0) } } }
            }
          }
        },
        .calibrated(Contender.deferredHandleResolve) {
          // The same handle's `resolve()`: a copy of the service, retained and released.
          let container = Deferred.Container()
          must { try container.register(Storage.self) { Storage() } }
          let storage = must { try container.handle(Storage.self) }
          blackHole(must { try storage.resolve() })
          return { iterations in
            nanoseconds {
              must { for _ in 0..<iterations { blackHole(try storage.resolve()) } }
            }
          }
        },
        .calibrated(Contender.swinject) {
          // A plain container: its fastest form, for use from one thread.
          let container = Swinject.Container()
          container.register(Storage.self) { _ in Storage() }.inObjectScope(.container)
          blackHole(container.resolve(Storage.self))
          return { iterations in
            nanoseconds {
              for _ in 0..<iterations { blackHole(container.resolve(Storage.self)) }
            }
          }
        },
        .calibrated(Contender.dependencies) {
          // What a model holding `@Dependency(\.benchStorage) var storage` does on each use
          // of `storage`: read the wrapper's value.
          let storage = Dependency(\.benchStorage)
          blackHole(storage.wrappedValue)
          return { iterations in
            nanoseconds { for _ in 0..<iterations { blackHole(storage.wrappedValue) } }
          }
        },
        .calibrated(Contender.handWritten) {
          // A hand-written container: a dictionary of lazy factories behind one mutex, by key.
          let container = HandWrittenContainer()
          container.register(Storage.self) { _ in Storage() }
          blackHole(container.resolve(Storage.self))
          return { iterations in
            nanoseconds {
              for _ in 0..<iterations { blackHole(container.resolve(Storage.self)) }
            }
          }
        },
        .calibrated(Contender.lazyMutex) {
          let lazy = LazyStorage()
          blackHole(lazy.storage)
          return { iterations in
            nanoseconds { for _ in 0..<iterations { blackHole(lazy.storage) } }
          }
        },
        .calibrated(Contender.staticLet) {
          blackHole(StaticStorage.storage)
          return { iterations in
            nanoseconds { for _ in 0..<iterations { blackHole(StaticStorage.storage) } }
          }
        },
      ]
    })
}
