import Deferred
import Swinject

extension Scenario {
  /// Resolving a factory with a run-time argument, from a singleton built already.
  static let resolveArgument = Scenario(
    name: "resolveArgument",
    title: "resolve a new value from an argument and a cached dependency (ns per resolve)",
    rows: {
      [
        .calibrated(Contender.deferred) {
          let container = Deferred.Container()
          must { try container.register(Storage.self) { Storage() } }
          let clock = must {
            try container.register(Clock.self, argument: Int.self) {
              (_: Int, storage: Storage) in Clock(storage)
            }
          }
          blackHole(must { try container.resolve(clock, argument: 0) })
          return { iterations in
            nanoseconds {
              must {
                for index in 0..<iterations {
                  blackHole(try container.resolve(clock, argument: index))
                }
              }
            }
          }
        },
        .calibrated(Contender.swinject) {
          let container = Swinject.Container()
          container.register(Storage.self) { _ in Storage() }.inObjectScope(.container)
          container.register(Clock.self) { (resolver: Swinject.Resolver, _: Int) in
            Clock(resolver.resolve(Storage.self)!)
          }
          blackHole(container.resolve(Clock.self, argument: 0))
          return { iterations in
            nanoseconds {
              for index in 0..<iterations {
                blackHole(container.resolve(Clock.self, argument: index))
              }
            }
          }
        },
        // swift-dependencies has no factory with arguments: a dependency is a value, read
        // without one. No row.
        .calibrated(Contender.staticLet) {
          blackHole(Clock(StaticStorage.storage))
          return { iterations in
            nanoseconds { for _ in 0..<iterations { blackHole(Clock(StaticStorage.storage)) } }
          }
        },
      ]
    })
}
