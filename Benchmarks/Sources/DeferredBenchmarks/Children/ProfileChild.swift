import ChainServices
import Deferred

/// Runs one Deferred operation `count` times and nothing else, for a profiler:
///
///     valgrind --tool=callgrind --dump-instr=no DeferredBenchmarks _profile resolveCached 1000000
///
/// Run it with two counts and subtract to leave out the process's start.
enum ProfileChild {
  /// The operations that can be profiled, by scenario name.
  static let workloads = [
    "resolveCached", "resolveTransient", "launch10000", "resolveEach10000", "register1000",
    "registerChain", "coldFirstResolveUnrecorded",
    "coldFirstResolve",
  ]

  static func run(_ workload: String, count: Int) -> Int32 {
    let container = Deferred.Container(
      recording: workload == "coldFirstResolveUnrecorded" ? .off : .timings)
    must { try container.register(Storage.self) { Storage() } }
    must { try container.register(Clock.self, scope: .transient, Clock.init) }
    switch workload {
    case "resolveCached":
      must { for _ in 0..<count { blackHole(try container.resolve(Storage.self)) } }
    case "resolveTransient":
      must { for _ in 0..<count { blackHole(try container.resolve(Clock.self)) } }
    case "launch10000":
      for _ in 0..<count { LaunchGraph.launchUntilFullyReady(LaunchGraph.make(count: 10_000)) }
    case "resolveEach10000":
      // What `launch10000` builds, one by one: subtract it from that profile.
      let keys = (0..<10_000).map(LaunchGraph.key)
      for _ in 0..<count {
        let graph = LaunchGraph.make(count: 10_000)
        must { for key in keys { blackHole(try graph.resolve(key)) } }
      }
    case "register1000":
      for _ in 0..<count { blackHole(LaunchGraph.make(count: 1_000)) }
    case "registerChain":
      // What `coldFirstResolve` does before it resolves: subtract it from that profile.
      // Every further count registers the same services into one more container: subtract
      // two counts to see a registration with every type already known to the runtime.
      for index in 0..<count {
        let target = index == 0 ? container : Deferred.Container()
        must { try Chain.registerDeferred(length: 200, into: target) }
        blackHole(target)
      }
    case "coldFirstResolve", "coldFirstResolveUnrecorded":
      must { try Chain.registerDeferred(length: 200 * count, into: container) }
      blackHole(
        must { try Chain.resolveLastDeferred(length: 200 * count, from: container) })
    default:
      return fail("no workload named \(workload): \(workloads.joined(separator: ", "))")
    }
    return 0
  }
}
