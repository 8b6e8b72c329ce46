import Deferred

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Checks that can be turned off one at a time, while a known defect on the main line stops
/// the rest of a round from being checked. Every one is on unless the environment says
/// otherwise (`DEFERRED_STRESS_SKIP=<name>,<name>`); the test prints the ones it skips.
///
/// `scheduledCycles` is not a check of what a round saw but of what a plan may hold: skipped,
/// no service that reaches a dependency cycle is scheduled (they are all on demand), so plans
/// differ from those of the same seeds with it on.
enum StressCheck: String, CaseIterable, Sendable {
  case errors, identity, dependencies, runs, cycles, completeness, whenReady, readiness
  case scheduledFinished, report, childReplaced, scheduledCycles

  static let skipped: Set<StressCheck> = {
    guard let list = environment("DEFERRED_STRESS_SKIP") else { return [] }
    return Set(list.split(separator: ",").compactMap { StressCheck(rawValue: String($0)) })
  }()

  var isOn: Bool { !Self.skipped.contains(self) }
}

/// The library's promises, checked on what a round saw. Returns one line per broken promise.
func stressViolations(_ plan: StressPlan, _ result: StressResult) -> [String] {
  var found: [String] = []
  func fail(_ check: StressCheck, _ message: String) {
    let line = "[\(check.rawValue)] \(message)"
    if check.isOn && !found.contains(line) { found.append(line) }
  }
  let ledger = result.ledger
  for message in ledger.violations { fail(.errors, message) }
  if let hang = result.hang {
    found.append("[hang] \(hang)")
    return found
  }
  let shutDown = ledger.tickets["shutDown"] != nil
  let children = plan.children.count
  func name(_ id: Int) -> String { stressKey(id).description }
  func isSingleton(_ id: Int) -> Bool { !plan.services[id].transient }

  // Errors: only the ones the plan can cause.
  func checkError(_ error: DeferredError, container: Int, id: Int, what: String) {
    switch error.code {
    case .cycle:
      if !plan.reachesCycle.contains(id) {
        fail(.cycles, "\(what) failed with a cycle, but s\(id) reaches none: \(error)")
      }
      let loop = error.cycle.map(stressID)
      let isLoop =
        loop.count >= 2 && loop.first == loop.last
        && zip(loop, loop.dropFirst()).allSatisfy { pair in
          guard let from = pair.0, let to = pair.1 else { return false }
          return plan.hasEdge(from, to)
        }
      if !isLoop { fail(.cycles, "\(what): the cycle \(error.cycle) is not a loop of the plan") }
    case .factoryFailed:
      guard let failed = stressID(error.service), plan.services[failed].throwsFirst,
        error.underlying is StressFault
      else {
        fail(.errors, "\(what): a factory failed that never throws: \(error)")
        return
      }
    case .shutDown where shutDown: break
    case .missingService where plan.services[id].late || (shutDown && container > 0): break
    default:
      fail(.errors, "\(what): unexpected \(error.code): \(error)")
    }
  }
  for outcome in ledger.outcomes {
    if case .failure(let error) = outcome.result {
      checkError(
        error, container: outcome.container, id: outcome.id,
        what: "\(outcome.worker) resolving s\(outcome.id) in container \(outcome.container)")
    }
  }
  for (work, error) in ledger.refused {
    if error.code == .missingService && plan.services[work.id].late { continue }
    if error.code == .shutDown && shutDown { continue }
    fail(.errors, "whenReady s\(work.id) #\(work.sequence) on \(work.worker) threw \(error)")
  }
  for step in ["launch", "firstFrameDrawn"] {
    guard let error = ledger.errors[step] else { continue }
    if shutDown && [.launchOrder, .shutDown].contains(error.code) { continue }
    fail(.errors, "\(step)() threw \(error)")
  }

  // Identity: one instance per singleton and container; the right registration made it.
  var instance: [[Int: StressBox]] = Array(repeating: [:], count: children + 1)
  for outcome in ledger.outcomes {
    guard case .success(let box) = outcome.result else { continue }
    let id = outcome.id
    if box.id != id { fail(.identity, "resolving s\(id) returned s\(box.id)") }
    if plan.reachesCycle.contains(id) {
      fail(.cycles, "s\(id) reaches a cycle but was built (\(outcome.worker))")
    }
    guard isSingleton(id) else { continue }
    let c = outcome.container
    if let known = instance[c][id], known !== box {
      fail(.identity, "s\(id) resolved as two instances in container \(c) (\(outcome.worker))")
    }
    instance[c][id] = instance[c][id] ?? box
    let expected: Set<String> =
      c > 0 && plan.children[c - 1].contains(id)
      ? ["child"]
      : c > 0 ? ["base", "replaced"] : ledger.replaced[id] == true ? ["replaced"] : ["base"]
    if c > 0, box.variant == "base", let replaced = ledger.tickets["replaced s\(id)"],
      box.ticket > replaced
    {
      fail(
        .childReplaced,
        "child \(c) built s\(id) from the registration its parent had replaced before (the child's copy of the retired node)"
      )
    } else if !expected.contains(box.variant) {
      fail(
        .identity,
        "s\(id) in container \(c) is the \(box.variant) registration's, not \(expected.sorted())")
    }
  }
  // A box's dependencies are the instances its container resolves (walked through boxes).
  for c in 0...children {
    var seen: Set<ObjectIdentifier> = []
    var stack = Array(instance[c].values)
    while let box = stack.popLast() {
      guard seen.insert(ObjectIdentifier(box)).inserted else { continue }
      let declared = box.variant == "child" ? [] : plan.services[box.id].dependencies
      if box.dependencies.map(\.id) != declared {
        fail(
          .dependencies,
          "s\(box.id) in container \(c) was built from \(box.dependencies.map(\.id)), not \(declared)"
        )
        continue
      }
      for dependency in box.dependencies where isSingleton(dependency.id) {
        if let known = instance[c][dependency.id], known !== dependency {
          fail(
            .dependencies,
            "s\(box.id) in container \(c) holds an s\(dependency.id) that is not the one the container resolves"
          )
        }
        instance[c][dependency.id] = instance[c][dependency.id] ?? dependency
        stack.append(dependency)
      }
    }
  }

  // Runs: a singleton's factory succeeds once per container that builds it.
  let reports = [result.report] + result.childReports
  var builtCounts: [[String: Int]] = []
  for (c, report) in reports.enumerated() {
    var counts: [String: Int] = [:]
    for record in report.builds where record.outcome == .built {
      counts[record.service, default: 0] += 1
    }
    for (service, count) in counts where count > 1 {
      fail(.runs, "\(service) was built \(count) times in container \(c)")
    }
    builtCounts.append(counts)
    for record in report.builds where record.selfDuration > record.duration {
      fail(
        .report,
        "\(record.service): selfDuration \(record.selfDuration) > duration \(record.duration)")
    }
  }
  for c in 0...children {
    for (id, box) in instance[c] {
      let parent = builtCounts[0][name(id)] ?? 0
      let own = c > 0 ? builtCounts[c][name(id)] ?? 0 : parent
      let ok =
        c == 0 ? parent == 1 : instance[0][id] === box ? parent == 1 : (own == 1 || parent == 1)
      if !ok {
        fail(
          .runs,
          "s\(id) resolved in container \(c) but built \(parent) times in the container, \(own) in the child"
        )
      }
    }
  }
  let homes = affectedCounts(plan)
  for (name, count) in ledger.successes {
    let parts = name.split(separator: " ")
    guard let id = Int(parts[1].dropFirst()), isSingleton(id) else { continue }
    let limit = parts[0] == "child" ? children : homes[id]
    if count > limit {
      fail(.runs, "the \(parts[0]) factory of s\(id) succeeded \(count) times (at most \(limit))")
    }
  }

  // Completeness: with no shutDown, everything off the cycles is built in the end, in every
  // container, and everything on one fails with `.cycle`.
  if !shutDown {
    for c in 0...children {
      var last: [Int: StressLedger.Outcome] = [:]
      for outcome in ledger.outcomes where outcome.container == c && outcome.worker == "final pass"
      {
        last[outcome.id] = outcome
      }
      for service in plan.services where c == 0 || service.form != .async {
        let id = service.id
        guard let outcome = last[id] else {
          fail(.completeness, "s\(id) was never resolved by the final pass in container \(c)")
          continue
        }
        switch (outcome.result, plan.reachesCycle.contains(id)) {
        case (.failure(let error), false):
          fail(.completeness, "s\(id) still fails in container \(c) after retries: \(error)")
        case (.failure(let error), true) where plan.onCycle.contains(id) && error.code != .cycle:
          fail(
            .cycles,
            "s\(id) is on a cycle but failed with \(error.code) in container \(c): \(error)")
        default: break
        }
      }
    }
  }

  // whenReady: each piece of work delivered once, in order per worker, with the instance.
  let builtNames = Set(result.report.builds.filter { $0.outcome == .built }.map(\.service))
  var deliveredTimes: [StressLedger.Work: Int] = [:]
  var lastSequence: [Int: [Int: Int]] = [:]
  let accepted = Set(ledger.accepted)
  for (work, box) in ledger.deliveries {
    deliveredTimes[work, default: 0] += 1
    if !accepted.contains(work) {
      fail(.whenReady, "whenReady s\(work.id) #\(work.sequence) was delivered but never accepted")
    }
    if let previous = lastSequence[work.worker]?[work.id], previous > work.sequence {
      fail(
        .whenReady,
        "whenReady s\(work.id) on worker \(work.worker): #\(work.sequence) delivered after #\(previous)"
      )
    }
    lastSequence[work.worker, default: [:]][work.id] = work.sequence
    if box.id != work.id || (instance[0][work.id].map { $0 !== box } ?? false) {
      fail(
        .whenReady,
        "whenReady s\(work.id) #\(work.sequence) was handed another instance (s\(box.id), \(box.variant))"
      )
    }
  }
  for (work, times) in deliveredTimes where times > 1 {
    fail(
      .whenReady,
      "whenReady s\(work.id) #\(work.sequence) on worker \(work.worker) delivered \(times) times")
  }
  for work in ledger.accepted where deliveredTimes[work] == nil {
    if !shutDown || builtNames.contains(name(work.id)) {
      fail(
        .whenReady,
        "whenReady s\(work.id) #\(work.sequence) on worker \(work.worker) was never delivered, though s\(work.id) was built"
      )
    }
  }

  // Readiness: exactly once for a launch that drew its first frame.
  let drawn = ledger.tickets["firstFrameDrawn"] != nil
  let returned = ledger.tickets["fullyReady"] != nil
  if let error = ledger.errors["fullyReady"], !(shutDown && error.code == .shutDown) {
    fail(.readiness, "fullyReady() threw \(error)")
  }
  if drawn && !shutDown && !returned { fail(.readiness, "fullyReady() never returned") }
  if returned {
    // A shutDown() between readiness and the second registration leaves that one uncalled.
    let calls = ledger.fullyReadyCalls
    if calls[0] != 1 || calls[1] > 1 || (!shutDown && calls[1] != 1) {
      fail(
        .readiness,
        "onFullyReady called \(ledger.fullyReadyCalls) times (registered before the launch, and after it was ready)"
      )
    }
  } else if ledger.fullyReadyCalls[0] > 0 {
    // A launch ready before shutDown() calls its callback; fullyReady() called only once
    // shutDown() has begun may throw all the same (a container shut down throws).
    let calledAfterShutDown =
      (ledger.tickets["fullyReady called"] ?? 0) > (ledger.tickets["shutDown"] ?? .max)
    if !calledAfterShutDown {
      fail(
        .readiness,
        "onFullyReady called \(ledger.fullyReadyCalls[0]) times but fullyReady() did not return")
    }
  }
  if returned, let ready = ledger.readyReport, let firstFrame = ledger.tickets["firstFrame"] {
    let recorded = Set(ready.builds.map(\.service))
    let failed = Set(
      ready.builds.filter { $0.outcome == .failed }.compactMap { stressID($0.service) })
    for service in plan.services where !service.transient {
      let stage = service.priority.stage
      guard stage == .afterFirstFrame || stage == .idle else { continue }
      if service.late, (ledger.tickets["late s\(service.id)"] ?? .max) > firstFrame { continue }
      if recorded.contains(name(service.id)) || failed.contains(service.id)
        || plan.reaches(from: service.id, to: failed, strict: false)
      {
        continue
      }
      fail(
        .scheduledFinished,
        "fullyReady() returned before the scheduled s\(service.id) (\(service.priority)) was built or failed"
      )
    }
  }
  return found
}

/// For each service, how many containers may build it: the container, and each child in
/// which it depends on an override (or resolves dynamically, in a child that overrides).
func affectedCounts(_ plan: StressPlan) -> [Int] {
  var counts = Array(repeating: 1, count: plan.count)
  for overrides in plan.children {
    var affected = Set(overrides)
    for service in plan.services where service.form == .resolver { affected.insert(service.id) }
    var changed = true
    while changed {
      changed = false
      for service in plan.services where service.form != .resolver && !affected.contains(service.id)
      {
        if service.dependencies.contains(where: affected.contains) {
          affected.insert(service.id)
          changed = true
        }
      }
    }
    for id in affected { counts[id] += 1 }
  }
  return counts
}

/// The value of an environment variable, if set.
func environment(_ name: String) -> String? {
  guard let value = getenv(name) else { return nil }
  return String(cString: value)
}
