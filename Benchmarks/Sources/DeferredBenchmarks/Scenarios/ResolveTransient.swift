import Deferred
import Dependencies
import Swinject

extension Scenario {
  /// Resolving a service that is made anew each time, from a singleton built already.
  static let resolveTransient = Scenario(
    name: "resolveTransient",
    title: "resolve a new value built from a cached dependency (ns per resolve)",
    rows: {
      [
        .calibrated(Contender.deferred) {
          let container = Deferred.Container()
          must { try container.register(Storage.self) { Storage() } }
          must { try container.register(Clock.self, scope: .transient, Clock.init) }
          blackHole(must { try container.resolve(Clock.self) })
          return { iterations in
            nanoseconds {
              must { for _ in 0..<iterations { blackHole(try container.resolve(Clock.self)) } }
            }
          }
        },
        .calibrated(Contender.swinject) {
          let container = Swinject.Container()
          container.register(Storage.self) { _ in Storage() }.inObjectScope(.container)
          container.register(Clock.self) { resolver in Clock(resolver.resolve(Storage.self)!) }
            .inObjectScope(.transient)
          blackHole(container.resolve(Clock.self))
          return { iterations in
            nanoseconds {
              for _ in 0..<iterations { blackHole(container.resolve(Clock.self)) }
            }
          }
        },
        .calibrated(Contender.dependencies) {
          // No transient scope: a factory dependency whose `make` reads the storage dependency
          // (see `ClockFactory`). A resolve is a read of the factory, then `make()`.
          let factory = Dependency(\.clockFactory)
          blackHole(factory.wrappedValue.make())
          return { iterations in
            nanoseconds { for _ in 0..<iterations { blackHole(factory.wrappedValue.make()) } }
          }
        },
        .calibrated(Contender.lazyMutex) {
          let lazy = LazyStorage()
          blackHole(Clock(lazy.storage))
          return { iterations in
            nanoseconds { for _ in 0..<iterations { blackHole(Clock(lazy.storage)) } }
          }
        },
        .calibrated(Contender.staticLet) {
          blackHole(Clock(StaticStorage.storage))
          return { iterations in
            nanoseconds { for _ in 0..<iterations { blackHole(Clock(StaticStorage.storage)) } }
          }
        },
      ]
    })
}
