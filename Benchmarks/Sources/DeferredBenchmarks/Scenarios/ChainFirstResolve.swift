import ChainServices
import Deferred
import Dependencies

extension Scenario {
  /// The first resolve of the last of 1,000 services, each needing the previous: building a
  /// deep graph, in a process that is warm.
  static let chainFirstResolve = Scenario(
    name: "chainFirstResolve",
    title: "first resolve of a chain of 1,000 services, fresh container (ns per service)",
    rows: {
      let length = 1000
      return [
        .calibrated(Contender.deferred, operationsPerIteration: length) {
          { iterations in
            let containers = (0..<iterations).map { _ in
              let container = Deferred.Container()
              must { try Chain.registerDeferred(length: length, into: container) }
              return container
            }
            return nanoseconds {
              must {
                for container in containers {
                  blackHole(try Chain.resolveLastDeferred(length: length, from: container))
                }
              }
            }
          }
        },
        .unsupported(
          Contender.swinject,
          "stops with fatalError past a resolution depth of 200 (Container.maxResolutionDepth)"),
        .calibrated(Contender.dependencies, operationsPerIteration: length) {
          { iterations in
            // A fresh `DependencyValues` has an empty cache: every link is computed again.
            let fresh = (0..<iterations).map { _ in DependencyValues() }
            return nanoseconds {
              for values in fresh {
                withDependencies {
                  $0 = values
                } operation: {
                  blackHole(Chain.readLastDependency(length: length))
                }
              }
            }
          }
        },
      ]
    })
}
