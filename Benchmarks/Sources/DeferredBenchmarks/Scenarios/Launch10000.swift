import Deferred
import Dispatch

extension Scenario {
  /// A whole launch of 10,000 services that do nothing, in a random dependency graph (fixed
  /// seed) with mixed priorities: `launch`, the first frame, `appIsIdle`, until fully ready.
  /// What is left per service is the orchestration's own cost: scheduling, gating, dispatch.
  static let launch10000 = Scenario(
    name: "launch10000",
    title: "launch 10,000 no-op services until fully ready (ns per service)",
    rows: {
      let count = 10_000
      return [
        .calibrated(Contender.deferred, operationsPerIteration: count) {
          { iterations in
            let containers = (0..<iterations).map { _ in LaunchGraph.make(count: count) }
            return nanoseconds {
              for container in containers { LaunchGraph.launchUntilFullyReady(container) }
            }
          }
        },
        // The same services built one by one on one thread, with no launch phases: the floor
        // the orchestration's cost is measured against.
        .calibrated("resolveEach", operationsPerIteration: count) {
          { iterations in
            let containers = (0..<iterations).map { _ in LaunchGraph.make(count: count) }
            // Made before the clock starts: a launch makes no keys either.
            let keys = (0..<count).map(LaunchGraph.key)
            return nanoseconds {
              must {
                for container in containers {
                  for key in keys { blackHole(try container.resolve(key)) }
                }
              }
            }
          }
        },
        .unsupported(Contender.swinject, "no launch phases or background warm-up"),
        .unsupported(Contender.dependencies, "no launch phases or background warm-up"),
      ]
    })
}

/// The graph `launch10000` launches.
enum LaunchGraph {
  final class Node: Sendable {}

  static func key(_ index: Int) -> ServiceKey<Node> { ServiceKey(name: "n\(index)") }

  /// 5% critical, 60% after the first frame, 15% idle, 20% on demand; each service after the
  /// first needs two earlier ones, chosen by a fixed-seed generator.
  ///
  /// With a `scheduler`, the container runs its deferred builds there, times them with the
  /// scheduler's clock and builds at most four at once, whatever the machine's processors: a
  /// launch whose every step is the same from run to run.
  static func make(count: Int, scheduler: ManualScheduler? = nil) -> Deferred.Container {
    let container =
      scheduler.map {
        Deferred.Container(scheduler: $0, clock: $0.clock, maxConcurrentBuilds: 4)
      } ?? Deferred.Container()
    var random = SplitMix64(seed: 0x5EED)
    must {
      try container.register(key(0), priority: .critical) { Node() }
      for index in 1..<count {
        let priority: Priority =
          switch index % 20 {
          case 0: .critical
          case 1...12: .afterFirstFrame()
          case 13...15: .idle(after: .seconds(3600))
          default: .onDemand
          }
        let first = Int(random.next() % UInt64(index))
        let second = Int(random.next() % UInt64(index))
        try container.register(
          key(index), priority: priority, dependencies: key(first), key(second)
        ) { _, _ in Node() }
      }
    }
    return container
  }

  /// Launches, reports the first frame and idleness, and blocks until fully ready.
  static func launchUntilFullyReady(_ container: Deferred.Container) {
    let ready = DispatchSemaphore(value: 0)
    container.onFullyReady(on: .global()) { ready.signal() }
    must {
      try container.launch()
      try container.firstFrameDrawn()
    }
    container.appIsIdle()
    ready.wait()
  }
}

/// A small seeded generator, so that the graph is the same in every run.
struct SplitMix64 {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
