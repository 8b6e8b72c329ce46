import Deferred
import Swinject

extension Deferred.Scope {
  /// The named scope of the `resolveScoped` scenario.
  static let benchSession = Deferred.Scope.named("session")
}

extension Scenario {
  /// Resolving a weak service that is built already and held by the caller: Deferred's
  /// `.weak` scope beside Swinject's `.weak` object scope (swift-dependencies has no weak
  /// scope).
  static let resolveWeak = Scenario(
    name: "resolveWeak", title: "resolve a weak service built already and held (ns per resolve)",
    rows: {
      [
        .calibrated(Contender.deferred) {
          let container = Deferred.Container()
          must { try container.register(Storage.self, scope: .weak) { Storage() } }
          let held = must { try container.resolve(Storage.self) }
          return { iterations in
            nanoseconds {
              must { for _ in 0..<iterations { blackHole(try container.resolve(Storage.self)) } }
              blackHole(held)
            }
          }
        },
        .calibrated(Contender.swinject) {
          let container = Swinject.Container()
          container.register(Storage.self) { _ in Storage() }.inObjectScope(.weak)
          let held = container.resolve(Storage.self)
          return { iterations in
            nanoseconds {
              for _ in 0..<iterations { blackHole(container.resolve(Storage.self)) }
              blackHole(held)
            }
          }
        },
      ]
    })

  /// Resolving a service of a named, resettable scope that is built already: Deferred's
  /// `Scope.named` beside a Swinject custom `ObjectScope` (reset with `resetObjectScope`).
  static let resolveScoped = Scenario(
    name: "resolveScoped",
    title: "resolve a named-scope service built already (ns per resolve)",
    rows: {
      [
        .calibrated(Contender.deferred) {
          let container = Deferred.Container()
          must { try container.register(Storage.self, scope: .benchSession) { Storage() } }
          blackHole(must { try container.resolve(Storage.self) })
          return { iterations in
            nanoseconds {
              must { for _ in 0..<iterations { blackHole(try container.resolve(Storage.self)) } }
            }
          }
        },
        .calibrated(Contender.swinject) {
          let session = ObjectScope(storageFactory: PermanentStorage.init, description: "session")
          let container = Swinject.Container()
          container.register(Storage.self) { _ in Storage() }.inObjectScope(session)
          blackHole(container.resolve(Storage.self))
          return { iterations in
            nanoseconds {
              for _ in 0..<iterations { blackHole(container.resolve(Storage.self)) }
            }
          }
        },
      ]
    })
}
