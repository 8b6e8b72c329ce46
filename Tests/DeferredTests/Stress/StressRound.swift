import Deferred
import Dispatch

/// What a round saw: every resolve, every `whenReady` handed over and delivered, every
/// factory attempt, and when the launch's steps happened (as tickets: a total order of what
/// the workers recorded).
final class StressLedger: Sendable {
  struct Outcome: Sendable {
    /// 0 for the container, k for its k-th child.
    let container: Int
    let id: Int
    let worker: String
    let result: Result<StressBox, DeferredError>
  }

  /// One `whenReady` call: its worker, its sequence number on that worker, its service.
  struct Work: Hashable, Sendable {
    let worker: Int
    let sequence: Int
    let id: Int
  }

  struct State {
    var attempts: [String: Int] = [:]
    var successes: [String: Int] = [:]
    var outcomes: [Outcome] = []
    var accepted: [Work] = []
    var refused: [(Work, DeferredError)] = []
    var deliveries: [(Work, StressBox)] = []
    var tickets: [String: Int] = [:]
    var nextTicket = 0
    var errors: [String: DeferredError] = [:]
    var fullyReadyCalls = [0, 0]
    var replaced: [Int: Bool] = [:]
    /// What a worker found wrong as it happened.
    var violations: [String] = []
    var readyReport: LaunchReport?
  }

  let state = StressLock(State())

  func event(_ name: String) {
    state.withLock { state in
      state.nextTicket += 1
      state.tickets[name] = state.nextTicket
    }
  }

  func failed(_ name: String, _ error: DeferredError) {
    state.withLock { state in
      state.nextTicket += 1
      state.tickets[name + " threw"] = state.nextTicket
      state.errors[name] = error
    }
  }

  /// Whether `event` was recorded.
  func happened(_ event: String) -> Bool { state.withLock { $0.tickets[event] != nil } }

  func violation(_ message: String) { state.withLock { $0.violations.append(message) } }

  func record(
    _ container: Int, _ id: Int, _ worker: String, _ result: Result<StressBox, DeferredError>
  ) {
    state.withLock {
      $0.outcomes.append(Outcome(container: container, id: id, worker: worker, result: result))
    }
  }

  /// Someone waiting for the ledger to reach a state: told on every delivery and readiness
  /// call, never by polling.
  private struct Watcher {
    let holds: @Sendable (State) -> Bool
    let resume: @Sendable (Bool) -> Void
  }

  private let watcher = StressLock<Watcher?>(nil)

  /// Suspends until `holds` is true of the ledger, or until `limit` has passed (a watchdog:
  /// what should have come did not); returns whether it held.
  func wait(until holds: @escaping @Sendable (State) -> Bool, limit: Duration) async -> Bool {
    await withCheckedContinuation { continuation in
      let resumed = StressLock(false)
      let resume: @Sendable (Bool) -> Void = { held in
        let first = resumed.withLock { done in
          defer { done = true }
          return !done
        }
        if first { continuation.resume(returning: held) }
      }
      watcher.withLock { $0 = Watcher(holds: holds, resume: resume) }
      changed()
      DispatchQueue.global().asyncAfter(
        deadline: .now() + .nanoseconds(Int(limit.components.seconds * 1_000_000_000))
      ) { resume(false) }
    }
  }

  /// Tells the watcher, if any, that the ledger changed.
  func changed() {
    guard let watcher = watcher.withLock({ $0 }) else { return }
    if state.withLock({ watcher.holds($0) }) { watcher.resume(true) }
  }
}

/// What the round's factories and `whenReady` closures capture: the round checks that it is
/// released with the container.
final class StressProbe: Sendable {
  let ledger: StressLedger
  private let freed: StressFreedSignal

  init(_ ledger: StressLedger, freed: StressFreedSignal) {
    self.ledger = ledger
    self.freed = freed
  }

  deinit { freed.fire() }

  /// A factory's body: counts the attempt, spins, throws on a faulty service's first attempt.
  func make(_ service: StressPlan.Service, _ variant: String, _ dependencies: [StressBox]) throws
    -> StressBox
  {
    let name = "\(variant) s\(service.id)"
    let (attempt, ticket) = ledger.state.withLock { state in
      state.attempts[name, default: 0] += 1
      state.nextTicket += 1
      return (state.attempts[name] ?? 0, state.nextTicket)
    }
    spin(microseconds: service.spin)
    if service.throwsFirst && attempt == 1 { throw StressFault(id: service.id) }
    let box = StressBox(service.id, variant: variant, dependencies: dependencies, ticket: ticket)
    ledger.state.withLock { $0.successes[name, default: 0] += 1 }
    return box
  }

  /// An async factory's body: suspends once, then as ``make(_:_:_:)``.
  func makeAsync(
    _ service: StressPlan.Service, _ variant: String, _ dependencies: [StressBox]
  ) async throws -> StressBox {
    await Task.yield()
    return try make(service, variant, dependencies)
  }

  func delivered(_ work: StressLedger.Work, _ box: StressBox) {
    ledger.state.withLock { $0.deliveries.append((work, box)) }
    ledger.changed()
  }

  func fullyReadyCalled(_ index: Int) {
    ledger.state.withLock { $0.fullyReadyCalls[index] += 1 }
    ledger.changed()
  }
}

/// Registers a plan's services, through every public form.
struct StressRegistrar: Sendable {
  let probe: StressProbe

  func register(
    _ service: StressPlan.Service, variant: String = "base", in container: Container,
    replacing: Bool = false
  ) throws(DeferredError) {
    let probe = self.probe
    let key = stressKey(service.id)
    let scope: Scope = service.transient ? .transient : .singleton
    let priority = service.priority
    let keys = service.dependencies.map(stressKey)
    switch (service.form, keys.count) {
    case (.declared, 0):
      try container.register(
        key, scope: scope, priority: priority, replacing: replacing,
        factory: { () throws -> StressBox in try probe.make(service, variant, []) })
    case (.declared, 1):
      try container.register(
        key, scope: scope, priority: priority, replacing: replacing, dependencies: keys[0],
        factory: { try probe.make(service, variant, [$0]) })
    case (.declared, 2):
      try container.register(
        key, scope: scope, priority: priority, replacing: replacing, dependencies: keys[0],
        keys[1], factory: { try probe.make(service, variant, [$0, $1]) })
    case (.declared, _):
      try container.register(
        key, scope: scope, priority: priority, replacing: replacing, dependencies: keys[0],
        keys[1], keys[2], factory: { try probe.make(service, variant, [$0, $1, $2]) })
    case (.async, 0):
      try container.register(
        key, scope: scope, priority: priority, replacing: replacing,
        factory: { () async throws -> StressBox in try await probe.makeAsync(service, variant, []) }
      )
    case (.async, 1):
      try container.register(
        key, scope: scope, priority: priority, replacing: replacing, dependencies: keys[0],
        factory: { (a: StressBox) async throws -> StressBox in
          try await probe.makeAsync(service, variant, [a])
        })
    case (.async, 2):
      try container.register(
        key, scope: scope, priority: priority, replacing: replacing, dependencies: keys[0],
        keys[1],
        factory: { (a: StressBox, b: StressBox) async throws -> StressBox in
          try await probe.makeAsync(service, variant, [a, b])
        })
    case (.async, _):
      try container.register(
        key, scope: scope, priority: priority, replacing: replacing, dependencies: keys[0],
        keys[1], keys[2],
        factory: { (a: StressBox, b: StressBox, c: StressBox) async throws -> StressBox in
          try await probe.makeAsync(service, variant, [a, b, c])
        })
    case (.resolver, _):
      try container.register(key, scope: scope, priority: priority, replacing: replacing) {
        resolver in
        var boxes: [StressBox] = []
        for dependency in service.dependencies {
          boxes.append(try resolver.resolve(stressKey(dependency)))
        }
        if let back = service.backEdge { _ = try resolver.resolve(stressKey(back)) }
        return try probe.make(service, variant, boxes)
      }
    }
  }
}

/// What a round leaves for its invariants.
struct StressResult {
  var ledger: StressLedger.State
  /// The phase that did not finish within the deadline, and what each worker was doing.
  var hang: String?
  var report: LaunchReport
  var childReports: [LaunchReport]
}

/// Weak references to what a round must release.
struct StressReleased {
  weak var container: Container?
  weak var probe: StressProbe?
  /// Fired when the probe is freed: it is held by the container's factories and queued work,
  /// so once it is gone, so is the container.
  let probeFreed = StressFreedSignal()
  var children: [Weak] = []

  struct Weak {
    weak var container: Container?
  }

  var remaining: [String] {
    var names: [String] = []
    if container != nil { names.append("the container") }
    if probe != nil { names.append("what the factories and whenReady closures captured") }
    for (index, child) in children.enumerated() where child.container != nil {
      names.append("child \(index + 1)")
    }
    return names
  }
}

/// One round: the plan's container, launched and raced by threads and tasks, then resolved
/// through, then awaited until it is fully ready (or shut down).
struct StressRound {
  let plan: StressPlan
  /// How long each phase may take before the watchdog calls it a hang.
  let limit: Duration

  /// Runs the round; returns what it saw and what it must release.
  func run() async -> (StressResult, StressReleased) {
    let ledger = StressLedger()
    var released = StressReleased()
    let result = await live(ledger, &released)
    return (result, released)
  }

  private func live(_ ledger: StressLedger, _ released: inout StressReleased) async
    -> StressResult
  {
    let plan = self.plan
    let probe = StressProbe(ledger, freed: released.probeFreed)
    let registrar = StressRegistrar(probe: probe)
    let container = Container(maxConcurrentBuilds: plan.maxConcurrentBuilds)
    released.container = container
    released.probe = probe
    for service in plan.services where !service.late {
      do {
        try registrar.register(service, in: container)
      } catch {
        ledger.violation("registering s\(service.id) threw \(error)")
      }
    }
    let readyQueue = DispatchQueue(label: "stress.onFullyReady")
    container.onFullyReady(on: readyQueue) { probe.fullyReadyCalled(0) }

    let readiness = StressWorkers()
    readiness.task("fullyReady") { note in
      note("awaiting fullyReady()")
      do throws(DeferredError) {
        ledger.event("fullyReady called")
        try await container.fullyReady()
        let report = container.launchReport()
        ledger.event("fullyReady")
        ledger.state.withLock { $0.readyReport = report }
      } catch {
        ledger.failed("fullyReady", error)
      }
    }

    let syncIDs = plan.services.filter { $0.form != .async }.map(\.id)
    let allIDs = plan.services.map(\.id)
    let waitable = plan.services.filter { !$0.transient && !plan.reachesCycle.contains($0.id) }
      .map(\.id)
    let children = StressLock<[Container?]>(Array(repeating: nil, count: plan.children.count))
    let queues = (0..<2).map { DispatchQueue(label: "stress.whenReady.\($0)") }

    let racing = StressWorkers()
    @Sendable func random(_ worker: Int) -> StressRandom {
      StressRandom(seed: plan.seed ^ (UInt64(worker + 1) &* 0x9E37_79B9_7F4A_7C15))
    }
    racing.thread("launcher") { note in
      var random = random(1)
      spin(microseconds: plan.launchDelay)
      note("launch()")
      ledger.event("launch")
      do throws(DeferredError) {
        try container.launch()
        ledger.event("launched")
      } catch {
        ledger.failed("launch", error)
        return
      }
      spin(microseconds: random.int(in: 0...300))
      note("firstFrameDrawn()")
      ledger.event("firstFrame")
      do throws(DeferredError) {
        try container.firstFrameDrawn()
        ledger.event("firstFrameDrawn")
      } catch {
        ledger.failed("firstFrameDrawn", error)
        return
      }
      if plan.appIsIdle {
        spin(microseconds: random.int(in: 0...3_000))
        note("appIsIdle()")
        container.appIsIdle()
      }
    }
    racing.thread("late registrations") { note in
      var random = random(2)
      for service in plan.services where service.late {
        spin(microseconds: random.int(in: 0...400))
        note("register late s\(service.id)")
        do throws(DeferredError) {
          try registrar.register(service, in: container)
          ledger.event("late s\(service.id)")
        } catch {
          // Registering after shutDown() throws `shutDown`.
          if error.code != .shutDown || !ledger.happened("shutDown") {
            ledger.violation("registering late s\(service.id) threw \(error)")
          }
        }
      }
    }
    for worker in 0..<plan.resolverThreads {
      racing.thread("resolver \(worker)") { note in
        var random = random(10 + worker)
        for _ in 0..<random.int(in: 30...120) {
          let id = syncIDs[random.int(below: syncIDs.count)]
          note("resolve s\(id)")
          let result = Result { () throws(DeferredError) in try container.resolve(stressKey(id)) }
          ledger.record(0, id, "resolver \(worker)", result)
        }
      }
    }
    for worker in 0..<2 {
      racing.task("task \(worker)") { note in
        var random = random(20 + worker)
        for _ in 0..<random.int(in: 20...80) {
          let id = allIDs[random.int(below: allIDs.count)]
          note("awaitService s\(id)")
          do throws(DeferredError) {
            let box = try await container.awaitService(stressKey(id))
            ledger.record(0, id, "task \(worker)", .success(box))
          } catch {
            ledger.record(0, id, "task \(worker)", .failure(error))
          }
        }
      }
    }
    for (worker, queue) in queues.enumerated() {
      racing.thread("whenReady \(worker)") { note in
        var random = random(30 + worker)
        for sequence in 0..<random.int(in: 10...40) {
          let work = StressLedger.Work(
            worker: worker, sequence: sequence, id: waitable[random.int(below: waitable.count)])
          note("whenReady s\(work.id) #\(sequence)")
          do throws(DeferredError) {
            try container.whenReady(StressBox.self, name: "s\(work.id)", on: queue) { box in
              probe.delivered(work, box)
            }
            ledger.state.withLock { $0.accepted.append(work) }
          } catch {
            ledger.state.withLock { $0.refused.append((work, error)) }
          }
          spin(microseconds: random.int(in: 0...100))
        }
      }
    }
    if plan.pauses > 0 {
      racing.thread("pause") { note in
        var random = random(3)
        for _ in 0..<plan.pauses {
          spin(microseconds: random.int(in: 0...1_500))
          note("pause()")
          container.pause()
          spin(microseconds: random.int(in: 50...800))
          note("resume()")
          container.resume()
        }
      }
    }
    if let delay = plan.shutDownAfter {
      racing.thread("shutDown") { note in
        spin(microseconds: delay)
        note("shutDown()")
        ledger.event("shutDown")
        container.shutDown()
        ledger.event("shutDown returned")
      }
    }
    if !plan.replaced.isEmpty {
      racing.thread("replace") { note in
        var random = random(4)
        for id in plan.replaced {
          spin(microseconds: random.int(in: 0...1_500))
          note("register s\(id) replacing")
          do throws(DeferredError) {
            try registrar.register(
              plan.services[id], variant: "replaced", in: container, replacing: true)
            ledger.state.withLock { $0.replaced[id] = true }
            ledger.event("replaced s\(id)")
          } catch {
            ledger.state.withLock { $0.replaced[id] = false }
            if error.code != .registrationTooLate
              && (error.code != .shutDown || !ledger.happened("shutDown"))
            {
              ledger.violation("replacing s\(id) threw \(error)")
            }
          }
        }
      }
    }
    for (index, overrides) in plan.children.enumerated() {
      racing.thread("child \(index + 1)") { note in
        var random = random(40 + index)
        note("makeChild()")
        let child = container.makeChild()
        children.withLock { $0[index] = child }
        for id in overrides {
          let double = StressPlan.Service(id: id, form: .declared, dependencies: [])
          do throws(DeferredError) {
            try registrar.register(double, variant: "child", in: child)
          } catch {
            ledger.violation("child \(index + 1): overriding s\(id) threw \(error)")
          }
        }
        for _ in 0..<random.int(in: 20...60) {
          let id = syncIDs[random.int(below: syncIDs.count)]
          note("child resolve s\(id)")
          let result = Result { () throws(DeferredError) in try child.resolve(stressKey(id)) }
          ledger.record(index + 1, id, "child \(index + 1)", result)
        }
      }
    }

    var hang: String?
    func finish(_ workers: StressWorkers, _ phase: String) async {
      guard hang == nil else { return }
      if await !workers.wait(limit: limit) {
        hang = "\(phase) did not finish within \(limit): \(workers.unfinished)"
        let finished = Set(
          container.launchReport().builds.filter { $0.outcome != .cancelled }.map(\.service))
        let waiting = plan.services.filter { service in
          [.afterFirstFrame, .idle].contains(service.priority.stage) && !service.transient
            && !finished.contains(stressKey(service.id).description)
        }
        hang! +=
          "; scheduled services with no finished build: \(waiting.map { "s\($0.id) \($0.priority)" })"
      }
    }
    await finish(racing, "the racing phase")
    let children0 = children.withLock { $0.compactMap { $0 } }

    // Every service that is not on a cycle gets built: the faulty ones are tried again.
    if hang == nil && plan.shutDownAfter == nil {
      let pass = StressWorkers()
      for (index, target) in ([container] + children0).enumerated() {
        pass.thread("final pass \(index)") { note in
          for id in syncIDs {
            for _ in 0..<4 {
              note("resolve s\(id)")
              let result = Result { () throws(DeferredError) in try target.resolve(stressKey(id)) }
              ledger.record(index, id, "final pass", result)
              if case .failure(let error) = result, error.code == .factoryFailed { continue }
              break
            }
          }
        }
      }
      await finish(pass, "the final pass")
      let asyncPass = StressWorkers()
      asyncPass.task("final async pass") { note in
        for service in plan.services where service.form == .async {
          for _ in 0..<4 {
            note("awaitService s\(service.id)")
            do throws(DeferredError) {
              let box = try await container.awaitService(stressKey(service.id))
              ledger.record(0, service.id, "final pass", .success(box))
              break
            } catch {
              ledger.record(0, service.id, "final pass", .failure(error))
              if error.code != .factoryFailed { break }
            }
          }
        }
      }
      await finish(asyncPass, "the final async pass")
    }

    if hang == nil {
      let drawn = ledger.state.withLock { $0.tickets["firstFrameDrawn"] != nil }
      if !drawn && plan.shutDownAfter == nil {
        ledger.violation("the launch did not reach its first frame, with no shutDown()")
      }
      if !drawn && plan.shutDownAfter == nil { container.shutDown() }
      await finish(readiness, "fullyReady()")
    }
    let returned = ledger.state.withLock { $0.tickets["fullyReady"] != nil }
    if returned { container.onFullyReady(on: readyQueue) { probe.fullyReadyCalled(1) } }

    // Every delivery and readiness call is on its queue by now, or about to be: the ledger
    // says when the last arrives (the limit is a watchdog, not a wait for time to pass).
    if hang == nil {
      let built = Set(
        container.launchReport().builds.filter { $0.outcome == .built }.map(\.service))
      _ = await ledger.wait(
        until: { state in
          let delivered = Set(state.deliveries.map(\.0))
          return state.accepted.allSatisfy {
            delivered.contains($0) || !built.contains(stressKey($0.id).description)
          }
            && (!returned
              || (state.fullyReadyCalls[0] >= 1
                && (state.fullyReadyCalls[1] >= 1 || state.tickets["shutDown"] != nil)))
        }, limit: .seconds(10))
    }

    for child in children0 { released.children.append(.init(container: child)) }
    return StressResult(
      ledger: ledger.state.withLock { $0 }, hang: hang, report: container.launchReport(),
      childReports: children0.map { $0.launchReport() })
  }
}

/// Fired once, from a deinit: a round waits on it for what it must release, instead of polling.
final class StressFreedSignal: Sendable {
  private struct State {
    var fired = false
    var waiter: CheckedContinuation<Bool, Never>?
  }

  private let state = StressLock(State())

  func fire() {
    let waiter = state.withLock { state in
      state.fired = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: true)
  }

  /// Suspends until fired, or until `limit` has passed (a watchdog); returns whether it fired.
  func wait(limit: Duration) async -> Bool {
    await withCheckedContinuation { continuation in
      let firedAlready = state.withLock { state in
        if state.fired { return true }
        state.waiter = continuation
        return false
      }
      if firedAlready { return continuation.resume(returning: true) }
      DispatchQueue.global().asyncAfter(
        deadline: .now() + .nanoseconds(Int(limit.components.seconds * 1_000_000_000))
      ) {
        let waiter = self.state.withLock { state in
          defer { state.waiter = nil }
          return state.waiter
        }
        waiter?.resume(returning: false)
      }
    }
  }
}
