import Deferred
import DeferredHistory
import Dispatch
import Foundation
import Synchronization

/// How close each way of running a launch's background work comes to the best any scheduler
/// could do: the time until every service is built over the ideal bound
/// `max(critical path, total work / cores)`, on random dependency graphs whose services spin
/// for a long-tailed cost. 1 is perfect.
///
/// Not a row of ``Scenario/all``: its figure is a ratio, not nanoseconds per operation, so the
/// report carries it beside the checks.
enum SchedulingQuality {
  /// The rows, in the order they are sampled and reported.
  static let rows = ["Deferred", "DeferredNoHistory", "fifo", "OperationQueue", "taskGroup"]

  /// How much to measure.
  struct Settings {
    /// Services per graph.
    let sizes: [Int]
    /// Graphs per size.
    let seeds: [UInt64]
    /// What every graph's services cost in all, in nanoseconds.
    let totalWork: UInt64
    /// Launches recorded into the history before Deferred's measured ones.
    let warmUps: Int
    /// Timed launches per row and graph; the median counts.
    let repetitions: Int

    static func of(_ mode: Mode) -> Settings {
      mode.name == Mode.quick.name
        ? Settings(
          sizes: [50, 500], seeds: [1], totalWork: 30_000_000, warmUps: 1, repetitions: 3)
        : Settings(
          sizes: [50, 500], seeds: [1, 2, 3], totalWork: 160_000_000, warmUps: 3, repetitions: 5)
    }
  }

  /// What a run found.
  struct Outcome {
    /// The cores every row used.
    let cores: Int
    let settings: Settings
    /// For each size, each row's ratio: the mean over the seeds of the median of the
    /// repetitions.
    var bySize: [Int: [String: Double]] = [:]
    /// For each size, each row's worst ratio over the seeds.
    var worstBySize: [Int: [String: Double]] = [:]
    /// For each size, the mean over the seeds of the critical path over the work per core.
    var depthBySize: [Int: Double] = [:]

    /// Each row's ratio over every size and seed: the mean of the per-size means.
    var overall: [String: Double] {
      var result: [String: Double] = [:]
      for row in SchedulingQuality.rows {
        let values = settings.sizes.compactMap { bySize[$0]?[row] }
        result[row] = values.reduce(0, +) / Double(max(values.count, 1))
      }
      return result
    }
  }

  /// A random dependency graph, its services in topological order (each needs only earlier
  /// ones), registered in a shuffled order.
  struct Graph: Sendable {
    /// Each service's cost, in nanoseconds.
    let costs: [UInt64]
    /// What each service needs.
    let needs: [[Int]]
    /// The services that need each one.
    let dependents: [[Int]]
    /// The services in the order they are registered (or added, or enqueued).
    let order: [Int]
    /// The longest path of costs.
    let criticalPath: UInt64

    /// `count` services whose costs (log-normal, σ = 2: a few services take a good share of
    /// the whole) add up to about `totalWork`; each needs up to three of the eight services
    /// before it.
    init(count: Int, seed: UInt64, totalWork: UInt64) {
      var random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ UInt64(count))
      func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
      var weights: [Double] = []
      var needs: [[Int]] = []
      for index in 0..<count {
        // Box–Muller: a standard normal, from two uniforms in (0, 1].
        let normal =
          (-2 * log(1 - uniform())).squareRoot() * cos(2 * Double.pi * uniform())
        weights.append(exp(2 * normal))
        let window = Array(max(0, index - 8)..<index)
        let wanted = min(window.count, Int(random.next() % 4))
        var chosen: [Int] = []
        var pool = window
        for _ in 0..<wanted {
          chosen.append(pool.remove(at: Int(random.next() % UInt64(pool.count))))
        }
        needs.append(chosen)
      }
      let scale = Double(totalWork) / weights.reduce(0, +)
      costs = weights.map { UInt64($0 * scale) }
      self.needs = needs
      var dependents = [[Int]](repeating: [], count: count)
      for (index, needed) in needs.enumerated() {
        for dependency in needed { dependents[dependency].append(index) }
      }
      self.dependents = dependents
      var order = Array(0..<count)
      for index in stride(from: count - 1, to: 0, by: -1) {
        order.swapAt(index, Int(random.next() % UInt64(index + 1)))
      }
      self.order = order
      var path = [UInt64](repeating: 0, count: count)
      for index in (0..<count).reversed() {
        path[index] = costs[index] + (dependents[index].map { path[$0] }.max() ?? 0)
      }
      criticalPath = path.max() ?? 0
    }

    /// What the costs add up to.
    var totalWork: UInt64 { costs.reduce(0, +) }

    /// No scheduler on `cores` cores can finish sooner.
    func idealBound(cores: Int) -> Double {
      max(Double(criticalPath), Double(totalWork) / Double(cores))
    }
  }

  /// Measures every row on every graph of the mode's settings.
  static func check(_ mode: Mode) -> Outcome {
    let settings = Settings.of(mode)
    let cores = ProcessInfo.processInfo.activeProcessorCount
    var outcome = Outcome(cores: cores, settings: settings)
    for size in settings.sizes {
      var ratios: [String: [Double]] = [:]
      var depths: [Double] = []
      for seed in settings.seeds {
        let graph = Graph(count: size, seed: seed, totalWork: settings.totalWork)
        let ideal = graph.idealBound(cores: cores)
        depths.append(Double(graph.criticalPath) / (Double(graph.totalWork) / Double(cores)))
        let history = LaunchHistory()
        for _ in 0..<settings.warmUps {
          let container = deferred(graph, cores: cores, history: history)
          _ = launch(container)
          history.record(container.launchReport())
        }
        var samples: [String: [Double]] = [:]
        // Rows in turn, so that a change in the machine's load falls on every row alike.
        for _ in 0..<settings.repetitions {
          for row in rows {
            samples[row, default: []].append(
              Double(run(row, graph, cores: cores, history: history)))
          }
        }
        for row in rows {
          ratios[row, default: []].append(Summary(samples[row] ?? []).median / ideal)
        }
      }
      outcome.bySize[size] = ratios.mapValues { $0.reduce(0, +) / Double($0.count) }
      outcome.worstBySize[size] = ratios.mapValues { $0.max() ?? 0 }
      outcome.depthBySize[size] = depths.reduce(0, +) / Double(depths.count)
    }
    return outcome
  }

  /// One launch of `graph` by `row`: nanoseconds until every service is built.
  private static func run(_ row: String, _ graph: Graph, cores: Int, history: LaunchHistory)
    -> UInt64
  {
    switch row {
    case "Deferred": launch(deferred(graph, cores: cores, history: history))
    case "DeferredNoHistory": launch(deferred(graph, cores: cores, history: nil))
    case "fifo": fifo(graph, cores: cores)
    case "OperationQueue": operationQueue(graph, cores: cores)
    default: taskGroup(graph, cores: cores)
    }
  }

  // MARK: - Deferred

  final class Built: Sendable {}

  static func key(_ index: Int) -> ServiceKey<Built> { ServiceKey(name: "s\(index)") }

  /// A container with every service of `graph` after the first frame, registered in the
  /// graph's order, at most `cores` building at once.
  static func deferred(_ graph: Graph, cores: Int, history: LaunchHistory?) -> Deferred.Container {
    let container = Deferred.Container(maxConcurrentBuilds: cores, history: history)
    must {
      for index in graph.order {
        let cost = graph.costs[index]
        let needs = graph.needs[index].map(key)
        let priority = Priority.afterFirstFrame()
        switch needs.count {
        case 0:
          try container.register(key(index), priority: priority) { () in
            spin(cost)
            return Built()
          }
        case 1:
          try container.register(key(index), priority: priority, dependencies: needs[0]) { _ in
            spin(cost)
            return Built()
          }
        case 2:
          try container.register(
            key(index), priority: priority, dependencies: needs[0], needs[1]
          ) { _, _ in
            spin(cost)
            return Built()
          }
        default:
          try container.register(
            key(index), priority: priority, dependencies: needs[0], needs[1], needs[2]
          ) { _, _, _ in
            spin(cost)
            return Built()
          }
        }
      }
      try container.launch()
    }
    return container
  }

  /// From the first frame until fully ready.
  static func launch(_ container: Deferred.Container) -> UInt64 {
    let ready = DispatchSemaphore(value: 0)
    container.onFullyReady(on: .global()) { ready.signal() }
    return nanoseconds {
      must { try container.firstFrameDrawn() }
      ready.wait()
    }
  }

  // MARK: - A hand-written executor

  /// Runs ready services in registration order on `cores` threads: a heap of registration
  /// positions under one condition variable.
  static func fifo(_ graph: Graph, cores: Int) -> UInt64 {
    var position = [Int](repeating: 0, count: graph.order.count)
    for (place, index) in graph.order.enumerated() { position[index] = place }
    let state = FIFOState(graph, position: position)
    return nanoseconds {
      DispatchQueue.concurrentPerform(iterations: cores) { _ in state.work() }
    }
  }

  /// The FIFO executor's state, read and written under `condition` only.
  final class FIFOState: @unchecked Sendable {
    let graph: Graph
    /// Each service's registration position.
    let position: [Int]
    let condition = NSCondition()
    /// What each service waits for.
    var gates: [Int]
    /// Ready services' registration positions, a min-heap.
    var ready: [Int] = []
    /// Services taken to run.
    var taken = 0

    init(_ graph: Graph, position: [Int]) {
      self.graph = graph
      self.position = position
      gates = graph.needs.map(\.count)
      for index in graph.order where gates[index] == 0 { push(position[index]) }
    }

    /// A worker: takes the first ready service by registration until every one is taken.
    func work() {
      condition.lock()
      while true {
        while ready.isEmpty && taken < graph.costs.count { condition.wait() }
        guard let place = pop() else { break }
        taken += 1
        condition.unlock()
        let index = graph.order[place]
        spin(graph.costs[index])
        condition.lock()
        for dependent in graph.dependents[index] {
          gates[dependent] -= 1
          if gates[dependent] == 0 { push(position[dependent]) }
        }
        condition.broadcast()
      }
      condition.unlock()
    }

    private func push(_ place: Int) {
      ready.append(place)
      var child = ready.count - 1
      while child > 0, ready[child] < ready[(child - 1) / 2] {
        ready.swapAt(child, (child - 1) / 2)
        child = (child - 1) / 2
      }
    }

    private func pop() -> Int? {
      guard !ready.isEmpty else { return nil }
      ready.swapAt(0, ready.count - 1)
      let best = ready.removeLast()
      var parent = 0
      while true {
        var smallest = parent
        for child in [parent * 2 + 1, parent * 2 + 2]
        where child < ready.count && ready[child] < ready[smallest] {
          smallest = child
        }
        guard smallest != parent else { return best }
        ready.swapAt(parent, smallest)
        parent = smallest
      }
    }
  }

  // MARK: - What an app writes instead

  /// An operation per service, each depending on the operations of what it needs, added in
  /// registration order to a queue of `cores` at once.
  static func operationQueue(_ graph: Graph, cores: Int) -> UInt64 {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = cores
    let operations = graph.costs.map { cost in BlockOperation { spin(cost) } }
    for (index, needs) in graph.needs.enumerated() {
      for dependency in needs { operations[index].addDependency(operations[dependency]) }
    }
    let ordered = graph.order.map { operations[$0] }
    return nanoseconds { queue.addOperations(ordered, waitUntilFinished: true) }
  }

  /// A child task per service, added in registration order, each awaiting what it needs.
  static func taskGroup(_ graph: Graph, cores: Int) -> UInt64 {
    let latches = graph.costs.map { _ in Latch() }
    let done = DispatchSemaphore(value: 0)
    return nanoseconds {
      Task {
        await withTaskGroup(of: Void.self) { group in
          for index in graph.order {
            group.addTask {
              for dependency in graph.needs[index] { await latches[dependency].wait() }
              spin(graph.costs[index])
              latches[index].open()
            }
          }
        }
        done.signal()
      }
      done.wait()
    }
  }

  /// Opened once; waiters suspend until then.
  final class Latch: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>(
      (false, []))

    func open() {
      let waiters = state.withLock { state in
        state.isOpen = true
        defer { state.waiters = [] }
        return state.waiters
      }
      for waiter in waiters { waiter.resume() }
    }

    func wait() async {
      await withCheckedContinuation { continuation in
        let isOpen = state.withLock { state in
          if !state.isOpen { state.waiters.append(continuation) }
          return state.isOpen
        }
        if isOpen { continuation.resume() }
      }
    }
  }
}

/// Keeps the calling thread busy for `nanoseconds` of the monotonic clock.
@inline(never)
func spin(_ nanoseconds: UInt64) {
  let end = monotonicNanoseconds() + nanoseconds
  while monotonicNanoseconds() < end {}
}

extension SchedulingQuality.Outcome {
  /// The ratios as a table, a line per row.
  var table: String {
    var lines = [
      "schedulingQuality: time until every service is built over max(critical path, work / "
        + "cores), \(cores) cores, \(settings.totalWork / 1_000_000) ms of work per graph, "
        + "\(settings.seeds.count) graphs per size, median of \(settings.repetitions)",
      "  " + padded("row", 20)
        + settings.sizes.map {
          padded("\($0) mean", 11, alignRight: true) + padded("worst", 8, alignRight: true)
        }.joined() + padded("mean", 10, alignRight: true),
    ]
    let overall = overall
    for row in SchedulingQuality.rows {
      var line = "  " + padded(row, 20)
      for size in settings.sizes {
        line += padded(fixed(bySize[size]?[row] ?? 0, 3), 11, alignRight: true)
        line += padded(fixed(worstBySize[size]?[row] ?? 0, 3), 8, alignRight: true)
      }
      lines.append(line + padded(fixed(overall[row] ?? 0, 3), 10, alignRight: true))
    }
    lines.append(
      "  critical path over work per core: "
        + settings.sizes.map { "\($0): \(fixed(depthBySize[$0] ?? 0, 2))" }.joined(
          separator: ", "))
    return lines.joined(separator: "\n")
  }
}
