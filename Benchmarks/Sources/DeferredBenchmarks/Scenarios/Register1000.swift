import ChainServices
import Deferred
import Swinject

extension Scenario {
  /// Registering 1,000 services into a fresh container: what an app does at every launch.
  static let register1000 = Scenario(
    name: "register1000",
    title: "register 1,000 services into a fresh container (ns per registration)",
    rows: {
      let count = 1000
      return [
        .calibrated(Contender.deferred, operationsPerIteration: count) {
          { iterations in
            let containers = (0..<iterations).map { _ in Deferred.Container() }
            return nanoseconds {
              must {
                for container in containers {
                  try Chain.registerDeferred(length: count, into: container)
                }
              }
            }
          }
        },
        .calibrated(Contender.swinject, operationsPerIteration: count) {
          { iterations in
            let containers = (0..<iterations).map { _ in Swinject.Container() }
            return nanoseconds {
              for container in containers { Chain.registerSwinject(length: count, into: container) }
            }
          }
        },
        .unsupported(
          Contender.dependencies,
          "no runtime registration: a dependency is a type conforming to DependencyKey"),
      ]
    })
}
