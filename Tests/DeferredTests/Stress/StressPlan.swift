import Deferred

/// One round of the stress test, drawn from a seed: the graph of services, how each is made,
/// and what the round's workers do. The same seed makes the same plan (the threads' timing
/// differs from run to run; what they do does not).
struct StressPlan: Sendable {
  enum Form: String, Sendable {
    /// Dependencies declared by the factory's parameters (the key pack forms).
    case declared
    /// A `{ resolver in ... }` factory that resolves its dependencies itself.
    case resolver
    /// An `async` factory with declared dependencies.
    case async
  }

  struct Service: Sendable {
    let id: Int
    var form: Form
    /// Declared dependencies, or what a resolver factory resolves, in order.
    var dependencies: [Int]
    /// For a resolver factory on an injected cycle: the later service it resolves last.
    var backEdge: Int?
    var priority = Priority.onDemand
    var transient = false
    /// Throws on its first attempt.
    var throwsFirst = false
    /// Spins this long in its factory.
    var spin = 0
    /// Registered by a worker while the container launches, with `.afterFirstFrame()`.
    var late = false

    var edges: [Int] { dependencies + (backEdge.map { [$0] } ?? []) }
  }

  let seed: UInt64
  let shape: String
  var services: [Service] = []
  var maxConcurrentBuilds = 1
  /// Microseconds after the workers start when a worker shuts the container down, if it does.
  var shutDownAfter: Int?
  var launchDelay = 0
  var pauses = 0
  var appIsIdle = false
  /// Services a worker registers again with `replacing: true`.
  var replaced: [Int] = []
  /// Each child container's overrides.
  var children: [[Int]] = []
  var resolverThreads = 2
  /// Services on an injected cycle, and services that reach one (those included).
  var onCycle: Set<Int> = []
  var reachesCycle: Set<Int> = []

  var count: Int { services.count }

  /// Draws the plan of the round with `seed`, of 20 to `maxServices` services.
  init(seed: UInt64, maxServices: Int) {
    self.seed = seed
    var random = StressRandom(seed: seed)
    let count = random.int(in: 20...max(20, maxServices))
    let shapes = ["chain", "fan-in", "fan-out", "dag", "mixed"]
    shape = shapes[random.int(below: shapes.count)]
    let lateCount = max(1, count / 20)
    let baseCount = count - lateCount

    // Forms first: a synchronous service never depends on an async one.
    for id in 0..<count {
      var form = Form.declared
      if id >= lateCount * 2, id < baseCount, random.chance(0.15) {
        form = .async
      } else if id < baseCount, random.chance(0.25) {
        form = .resolver
      }
      services.append(Service(id: id, form: form, dependencies: []))
    }
    for id in 0..<count {
      var needs: [Int] = []
      let arity = random.int(in: 0...3)
      let shape = self.shape == "mixed" ? shapes[random.int(below: 4)] : self.shape
      let limit = min(id, baseCount)
      for slot in 0..<arity where limit > 0 {
        var candidate: Int
        switch shape {
        case "chain": candidate = slot == 0 ? limit - 1 : random.int(below: limit)
        case "fan-in":
          // Read backwards, a tree: the last service gathers all the others.
          let reversed = count - 1 - id
          candidate = count - 1 - (reversed * 3 + 1 + slot)
        case "fan-out": candidate = random.int(below: min(limit, 3))
        default: candidate = max(0, limit - 1 - random.int(below: min(limit, 12)))
        }
        guard candidate >= 0, candidate < limit, !needs.contains(candidate) else { continue }
        guard services[id].form == .async || services[candidate].form != .async else { continue }
        needs.append(candidate)
      }
      services[id].dependencies = needs
    }
    for id in 0..<baseCount where services[id].form == .declared && random.chance(0.03) {
      services[id].transient = true
    }
    for id in 0..<count {
      if random.chance(0.08) { services[id].throwsFirst = true }
      if random.chance(0.08) { services[id].spin = random.int(in: 100...500) }
    }
    injectCycles(&random, baseCount: baseCount)

    // Priorities: critical only for synchronous services that never fail and need only
    // critical ones.
    var critical: Set<Int> = []
    let qualities = BuildQoS.allCases
    for id in 0..<count {
      let service = services[id]
      if id >= baseCount {
        services[id].late = true
        services[id].priority = .afterFirstFrame(qualities[random.int(below: qualities.count)])
        continue
      }
      if service.transient { continue }
      if reachesCycle.contains(id) && !StressCheck.scheduledCycles.isOn {
        _ = random.int(below: 100)
        continue
      }
      let mayBeCritical =
        service.form != .async && !service.throwsFirst && !reachesCycle.contains(id)
        && service.dependencies.allSatisfy { critical.contains($0) }
      let draw = random.int(below: 100)
      if mayBeCritical && draw < 12 {
        services[id].priority = .critical
        critical.insert(id)
      } else if draw < 45 {
        services[id].priority = .afterFirstFrame(qualities[random.int(below: qualities.count)])
      } else if draw < 65 {
        services[id].priority = .idle(after: .milliseconds(random.int(in: 1...20)))
      }
    }

    // What the workers do.
    maxConcurrentBuilds = random.int(in: 1...4)
    if random.chance(0.3) { shutDownAfter = random.int(in: 0...4_000) }
    launchDelay = random.int(in: 0...300)
    pauses = random.chance(0.4) ? random.int(in: 1...3) : 0
    appIsIdle = random.chance(0.5)
    resolverThreads = random.int(in: 2...3)
    let replaceable = (0..<baseCount).filter { id in
      let service = services[id]
      return service.form == .declared && !service.transient && !service.throwsFirst
        && !reachesCycle.contains(id) && !critical.contains(id)
    }
    for _ in 0..<random.int(in: 0...2) where !replaceable.isEmpty {
      let id = replaceable[random.int(below: replaceable.count)]
      if !replaced.contains(id) { replaced.append(id) }
    }
    let overridable = (0..<baseCount).filter { id in
      let service = services[id]
      return service.form != .async && !service.transient && !reachesCycle.contains(id)
        && !replaced.contains(id)
    }
    for _ in 0..<random.int(in: 0...2) where !overridable.isEmpty {
      var overrides: [Int] = []
      for _ in 0..<random.int(in: 1...4) {
        let id = overridable[random.int(below: overridable.count)]
        if !overrides.contains(id) { overrides.append(id) }
      }
      children.append(overrides)
    }
  }

  /// Closes up to two loops through a resolver factory: it resolves a later service that
  /// leads back to it (directly, or through one between).
  private mutating func injectCycles(_ random: inout StressRandom, baseCount: Int) {
    for _ in 0..<random.int(in: 0...2) {
      let first = random.int(below: max(1, baseCount - 3))
      let last = random.int(in: (first + 1)...min(baseCount - 1, first + 20))
      var members = [first]
      if last - first > 1 && random.chance(0.5) {
        members.append(random.int(in: (first + 1)...(last - 1)))
      }
      members.append(last)
      guard members.allSatisfy({ services[$0].form != .async && !services[$0].transient }),
        !members.contains(where: { onCycle.contains($0) })
      else { continue }
      services[first].form = .resolver
      services[first].backEdge = last
      for (index, member) in members.enumerated().dropFirst() {
        let previous = members[index - 1]
        if services[member].dependencies.count == 3 { services[member].dependencies.removeLast() }
        if !services[member].dependencies.contains(previous) {
          services[member].dependencies.append(previous)
        }
      }
      for member in members {
        services[member].throwsFirst = false
        services[member].spin = 0
      }
      computeCycles()
    }
    computeCycles()
  }

  /// Finds the services on a cycle of the plan's edges, and those that reach one.
  private mutating func computeCycles() {
    onCycle = Set(services.indices.filter { id in reaches(from: id, to: [id], strict: true) })
    reachesCycle = Set(services.indices.filter { reaches(from: $0, to: onCycle, strict: false) })
  }

  /// Whether `from` leads to a service of `targets` by the plan's edges (in at least one step,
  /// if `strict`).
  func reaches(from: Int, to targets: Set<Int>, strict: Bool) -> Bool {
    if !strict && targets.contains(from) { return true }
    var seen: Set<Int> = []
    var stack = services[from].edges
    while let next = stack.popLast() {
      if targets.contains(next) { return true }
      if seen.insert(next).inserted { stack += services[next].edges }
    }
    return false
  }

  /// Whether `from` depends on `to` directly.
  func hasEdge(_ from: Int, _ to: Int) -> Bool {
    services.indices.contains(from) && services[from].edges.contains(to)
  }

  /// A one-line summary, for failure messages.
  var summary: String {
    let forms = Dictionary(grouping: services, by: \.form).mapValues(\.count)
    return "\(count) services (\(shape); declared \(forms[.declared] ?? 0), resolver"
      + " \(forms[.resolver] ?? 0), async \(forms[.async] ?? 0)), on a cycle \(onCycle.sorted()),"
      + " maxConcurrentBuilds \(maxConcurrentBuilds), shutDown"
      + " \(shutDownAfter.map { "after \($0) µs" } ?? "no"), pauses \(pauses),"
      + " replaced \(replaced), children \(children)"
  }
}

/// The draws the plan needs, from the tests' seeded SplitMix64 generator.
struct StressRandom {
  private var generator: SplitMix

  init(seed: UInt64) { generator = SplitMix(seed: seed) }

  mutating func next() -> UInt64 { generator.next() }

  mutating func int(below bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }

  mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + int(below: range.count)
  }

  mutating func chance(_ probability: Double) -> Bool {
    Double(next() >> 11) / Double(1 << 53) < probability
  }
}
