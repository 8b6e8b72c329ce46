import Deferred
import Dispatch

/// The round-two features under load, drawn from the round's seed: named and weak scopes with
/// `reset` racing builds, argument factories with and without a cache (including two that need
/// each other, made on two threads), forwarding, collections with contributions racing
/// resolves and a child, handles racing `shutDown()` and a child's override, and main-actor
/// services resolved from background threads while the main lane builds them. Each part has
/// its own container, its workers race, and its invariants are checked once they are done.
struct StressFeaturePlan: Sendable {
  enum Part: String, CaseIterable, Sendable {
    case scopes, arguments, forwarding, collections, handles, mainActor, resetRaces,
      reentrantCaches
  }

  let seed: UInt64
  var parts: [Part] = []
  /// Scopes: how many resets race the builds, and how many resolves each thread makes.
  var resets = 1
  var resolves = 20
  /// Arguments: how many distinct arguments, and which of them the mutual pair loops on.
  var arguments = 4
  var loopArguments: Set<Int> = []
  /// Collections: how many members are offered, and when (after which) a child is made.
  var contributions = 4
  var childAfter = 0
  /// Handles: microseconds before the container shuts down.
  var shutDownAfter = 0
  var threads = 2

  init(seed: UInt64) {
    self.seed = seed
    var random = StressRandom(seed: seed ^ 0x5EED_F00D_CAFE_F00D)
    for part in Part.allCases where random.chance(0.6) { parts.append(part) }
    resets = random.int(in: 1...4)
    resolves = random.int(in: 10...40)
    arguments = random.int(in: 1...6)
    loopArguments = Set((0..<arguments).filter { _ in random.chance(0.4) })
    contributions = random.int(in: 0...10)
    childAfter = random.int(in: 0...contributions)
    shutDownAfter = random.int(in: 0...1_500)
    threads = random.int(in: 2...3)
  }

  var summary: String {
    "features \(parts.map(\.rawValue)), resets \(resets), arguments \(arguments) (loops on"
      + " \(loopArguments.sorted())), contributions \(contributions) (child after"
      + " \(childAfter)), handles' shutDown after \(shutDownAfter) µs, threads \(threads)"
  }
}

/// A value of the feature rounds: a serial number, the number of resets begun when its
/// factory started, and what it was made with.
final class FeatureBox: StressFeatureService, Sendable {
  let serial: Int
  let generation: Int
  let variant: String
  let made: [FeatureBox]

  init(_ serial: Int, generation: Int = 0, variant: String = "base", made: [FeatureBox] = []) {
    self.serial = serial
    self.generation = generation
    self.variant = variant
    self.made = made
  }
}

/// Held by a feature part's container alone (by a registration's factory): its release says
/// the container was released.
final class FeatureProbe: Sendable {
  private let freed: StressFreedSignal

  init(_ freed: StressFreedSignal) { self.freed = freed }

  deinit { freed.fire() }

  /// Makes `container` hold this probe, and nothing else hold it.
  func hold(in container: Container) {
    _ = try? container.register(ServiceKey<FeatureBox>(name: "probe")) { [self] in
      _ = self
      return FeatureBox(0)
    }
  }
}

/// What a forwarded ``FeatureBox`` answers to.
protocol StressFeatureService: AnyObject, Sendable {}

/// A main-actor value of the feature rounds.
@MainActor final class FeatureMainBox: Sendable {
  let serial: Int
  init(_ serial: Int) { self.serial = serial }
}

/// Serial numbers and event tickets of a feature round, and its factories' runs by name.
final class FeatureCounters: Sendable {
  private struct State {
    var ticket = 0
    var runs: [String: Int] = [:]
    var resetsBegun = 0
    var resetsReturned = 0
  }
  private let state = StressLock(State())

  /// The next ticket: a total order of what the round's workers did.
  func tick() -> Int {
    state.withLock { state in
      state.ticket += 1
      return state.ticket
    }
  }

  /// Counts a run of the factory `name`; returns a new serial number.
  func run(_ name: String) -> Int {
    state.withLock { state in
      state.runs[name, default: 0] += 1
      state.ticket += 1
      return state.ticket
    }
  }

  func runs(_ name: String) -> Int { state.withLock { $0.runs[name] ?? 0 } }

  var resetsBegun: Int { state.withLock { $0.resetsBegun } }
  var resetsReturned: Int { state.withLock { $0.resetsReturned } }
  func beginReset() { state.withLock { $0.resetsBegun += 1 } }
  func endReset() { state.withLock { $0.resetsReturned += 1 } }
}

/// One resolve of a feature round: when it began and ended (tickets, and resets begun and
/// returned then), and what it got.
struct FeatureOutcome<Value: Sendable>: Sendable {
  let what: String
  let start: Int
  let end: Int
  let returnedAtStart: Int
  let begunAtEnd: Int
  let result: Result<Value, DeferredError>
}

/// What a feature round's workers record.
final class FeatureLedger: Sendable {
  let boxes = StressLock<[FeatureOutcome<FeatureBox>]>([])
  let arrays = StressLock<[FeatureOutcome<[Int]>]>([])
  let contributed = StressLock<[(Int, DeferredError?)]>([])
  let accepted = StressLock<Int>(0)
  let delivered = StressLock<[Int: Int]>([:])
  let events = StressLock<[String: Int]>([:])
  let violations = StressLock<[String]>([])

  func violation(_ message: String) { violations.withLock { $0.append(message) } }

  /// Who waits for how many deliveries, told by the delivery that reaches it.
  private let deliveryWaiter = StressLock<(target: Int, signal: StressFreedSignal)?>(nil)

  /// Counts a `whenReady` delivery of work `index`.
  func deliver(_ index: Int) {
    let total = delivered.withLock { delivered in
      delivered[index, default: 0] += 1
      return delivered.values.reduce(0, +)
    }
    if let (target, signal) = deliveryWaiter.withLock({ $0 }), total >= target { signal.fire() }
  }

  /// Suspends until `count` deliveries arrived (a watchdog of ten seconds: a lost one fails
  /// the check that follows), then until what `queue` holds has run, so that a duplicate
  /// delivery already under way is counted too.
  func awaitDeliveries(_ count: Int, on queue: DispatchQueue) async {
    let arrived = StressFreedSignal()
    deliveryWaiter.withLock { $0 = (count, arrived) }
    if delivered.withLock({ $0.values.reduce(0, +) }) >= count { arrived.fire() }
    _ = await arrived.wait(limit: .seconds(10))
    let drained = StressFreedSignal()
    queue.async { drained.fire() }
    _ = await drained.wait(limit: .seconds(10))
  }
}

/// One feature round: every drawn part, each on a container of its own, then the checks.
struct StressFeatureRound {
  let plan: StressFeaturePlan
  let limit: Duration

  /// Runs the round; returns what went wrong, and how many resolves it made.
  func run() async -> (violations: [String], resolves: Int) {
    var violations: [String] = []
    var resolves = 0
    for part in plan.parts {
      let ledger = FeatureLedger()
      let counters = FeatureCounters()
      let workers = StressWorkers()
      let freed = StressFreedSignal()
      var check: () async -> Void = {}
      switch part {
      case .scopes: check = scopes(ledger, counters, workers, FeatureProbe(freed))
      case .arguments: check = arguments(ledger, counters, workers, FeatureProbe(freed))
      case .forwarding: check = forwarding(ledger, counters, workers, FeatureProbe(freed))
      case .collections: check = collections(ledger, counters, workers, FeatureProbe(freed))
      case .handles: check = handles(ledger, counters, workers, FeatureProbe(freed))
      case .mainActor: check = mainActor(ledger, counters, workers, FeatureProbe(freed))
      case .resetRaces: check = resetRaces(ledger, counters, workers, FeatureProbe(freed))
      case .reentrantCaches:
        check = reentrantCaches(ledger, counters, workers, FeatureProbe(freed))
      }
      if await !workers.wait(limit: limit) {
        violations.append(
          "[\(part) hang] not done within \(limit): \(workers.unfinished)")
        return (violations, resolves)
      }
      await check()
      check = {}
      // The part's container holds the probe: once the container is gone, so is the probe
      // (the limit is a watchdog, not a wait for time to pass).
      if await !freed.wait(limit: .seconds(10)) {
        violations.append("[\(part) release] its container is still alive after the part")
      }
      resolves += ledger.boxes.withLock { $0.count } + ledger.arrays.withLock { $0.count }
      violations += ledger.violations.withLock { $0 }.map { "[\(part)] \($0)" }
    }
    return (violations, resolves)
  }

  /// Resolves `body` on behalf of `what`, recording when it began and ended.
  private func record<Value: Sendable>(
    _ what: String, _ counters: FeatureCounters, into list: StressLock<[FeatureOutcome<Value>]>,
    _ body: () throws(DeferredError) -> Value
  ) {
    let returned = counters.resetsReturned
    let start = counters.tick()
    let result = Result(catching: body)
    let end = counters.tick()
    let begun = counters.resetsBegun
    list.withLock {
      $0.append(
        FeatureOutcome(
          what: what, start: start, end: end, returnedAtStart: returned, begunAtEnd: begun,
          result: result))
    }
  }

  private func random(_ worker: Int) -> StressRandom {
    StressRandom(seed: plan.seed ^ (UInt64(worker + 101) &* 0x9E37_79B9_7F4A_7C15))
  }

  // MARK: Scopes

  /// A named-scope session, a singleton built with it, and a weak editor; `reset` races their
  /// builds. Nothing of a reset generation is handed out after `reset` returns; one build a
  /// generation at most; one instance within a generation, and while a holder keeps the weak
  /// one; every `whenReady` delivered once.
  private func scopes(
    _ ledger: FeatureLedger, _ counters: FeatureCounters, _ workers: StressWorkers,
    _ probe: FeatureProbe
  ) -> () async -> Void {
    let plan = self.plan
    let container = Container()
    probe.hold(in: container)
    let scope = Scope.named("stress.session")
    let session = ServiceKey<FeatureBox>(name: "session")
    let inbox = ServiceKey<FeatureBox>(name: "inbox")
    let editor = ServiceKey<FeatureBox>(name: "editor")
    do throws(DeferredError) {
      try container.register(session, scope: scope) { () -> FeatureBox in
        let generation = counters.resetsBegun
        let serial = counters.run("session")
        spin(microseconds: serial % 3 * 50)
        return FeatureBox(serial, generation: generation)
      }
      try container.register(inbox, dependencies: session) { (session: FeatureBox) in
        FeatureBox(
          counters.run("inbox"), generation: counters.resetsBegun, made: [session])
      }
      try container.register(editor, scope: .weak) { FeatureBox(counters.run("editor")) }
    } catch {
      ledger.violation("registering threw \(error)")
      return {}
    }
    workers.thread("reset") { note in
      var random = random(1)
      for _ in 0..<plan.resets {
        spin(microseconds: random.int(in: 0...600))
        note("reset")
        counters.beginReset()
        container.reset(scope)
        counters.endReset()
      }
    }
    for worker in 0..<plan.threads {
      workers.thread("resolver \(worker)") { note in
        var random = random(2 + worker)
        for _ in 0..<plan.resolves {
          let key = [session, inbox, editor][random.int(below: 3)]
          note("resolve \(key)")
          record(key.description, counters, into: ledger.boxes) { () throws(DeferredError) in
            try container.resolve(key)
          }
          spin(microseconds: random.int(in: 0...60))
        }
      }
    }
    let held = StressLock<(FeatureBox?, start: Int, end: Int)>((nil, 0, 0))
    workers.thread("weak holder") { note in
      var random = random(9)
      note("hold the editor")
      guard let box = try? container.resolve(editor) else { return }
      let start = counters.tick()
      spin(microseconds: random.int(in: 100...800))
      let end = counters.tick()
      held.withLock { $0 = (box, start, end) }
    }
    let queue = DispatchQueue(label: "stress.features.whenReady")
    workers.thread("whenReady") { note in
      var random = random(10)
      for index in 0..<random.int(in: 1...5) {
        note("whenReady #\(index)")
        do throws(DeferredError) {
          try container.whenReady(FeatureBox.self, name: "session", on: queue) { _ in
            ledger.deliver(index)
          }
          ledger.accepted.withLock { $0 += 1 }
        } catch {
          ledger.violation("whenReady threw \(error)")
        }
        spin(microseconds: random.int(in: 0...300))
      }
    }
    return {
      // A last resolve builds the session of the last generation: queued work gets it.
      _ = try? container.resolve(session)
      let expected = ledger.accepted.withLock { $0 }
      await ledger.awaitDeliveries(expected, on: queue)
      let delivered = ledger.delivered.withLock { $0 }
      if delivered.count != expected || delivered.values.contains(where: { $0 != 1 }) {
        ledger.violation(
          "whenReady: \(expected) accepted, delivered \(delivered.sorted { $0.key < $1.key })")
      }
      let resets = counters.resetsReturned
      for name in ["session", "inbox"] where counters.runs(name) > resets + 1 {
        ledger.violation("\(name) built \(counters.runs(name)) times for \(resets) resets")
      }
      let outcomes = ledger.boxes.withLock { $0 }
      var byWindow: [String: ObjectIdentifier] = [:]
      for outcome in outcomes {
        guard case .success(let box) = outcome.result else {
          ledger.violation("\(outcome.what) failed: \(outcome.result)")
          continue
        }
        if outcome.what != editor.description {
          // Nothing made before a reset began once that reset has returned.
          let made = [box] + box.made
          if let stale = made.first(where: { $0.generation < outcome.returnedAtStart }) {
            ledger.violation(
              "\(outcome.what) begun after reset \(outcome.returnedAtStart) returned got a"
                + " value of generation \(stale.generation)")
          }
          // Within one generation (no reset began meanwhile), one instance.
          if outcome.returnedAtStart == outcome.begunAtEnd {
            let window = "\(outcome.what) \(outcome.begunAtEnd)"
            if let seen = byWindow[window], seen != ObjectIdentifier(box) {
              ledger.violation("two instances of \(outcome.what) in generation \(window)")
            }
            byWindow[window] = ObjectIdentifier(box)
          }
        }
      }
      // The weak editor: one instance while its holder holds it.
      let (kept, start, end) = held.withLock { $0 }
      if let kept {
        for outcome in outcomes
        where outcome.what == editor.description && outcome.start > start && outcome.end < end {
          if case .success(let box) = outcome.result, box !== kept {
            ledger.violation("the weak editor was built again while held")
          }
        }
      }
    }
  }

  // MARK: Reset races

  /// Resets racing resolves of a session and then of a singleton built with it, read from
  /// the container, through handles, from a child that shares the parent's nodes and from a
  /// child that builds its own copy: the singleton never holds a session of a generation older
  /// than the resets that returned before the read (no reader sees a reset generation after a
  /// new one).
  private func resetRaces(
    _ ledger: FeatureLedger, _ counters: FeatureCounters, _ workers: StressWorkers,
    _ probe: FeatureProbe
  ) -> () async -> Void {
    let plan = self.plan
    let container = Container()
    probe.hold(in: container)
    let scope = Scope.named("stress.races")
    let session = ServiceKey<FeatureBox>(name: "session")
    let storage = ServiceKey<FeatureBox>(name: "storage")
    let inbox = ServiceKey<FeatureBox>(name: "inbox")
    let shared = container.makeChild()
    let copying = container.makeChild()
    typealias Read = @Sendable () throws(DeferredError) -> (FeatureBox, FeatureBox)
    let readers: [(String, Read)]
    do throws(DeferredError) {
      try container.register(session, scope: scope) { () -> FeatureBox in
        let serial = counters.run("session")
        spin(microseconds: serial % 3 * 30)
        return FeatureBox(serial, generation: counters.resetsBegun)
      }
      try container.register(storage) { FeatureBox(counters.run("storage")) }
      try container.register(inbox, dependencies: session, storage) {
        (session: FeatureBox, _: FeatureBox) in
        FeatureBox(counters.run("inbox"), made: [session])
      }
      // Inbox depends on it: this child builds a copy of Inbox of its own.
      try copying.register(storage) {
        FeatureBox(counters.run("child storage"), variant: "child")
      }
      let sessionHandle = try container.handle(for: session)
      let inboxHandle = try container.handle(for: inbox)
      readers = [
        (
          "container",
          { () throws(DeferredError) in
            (try container.resolve(session), try container.resolve(inbox))
          }
        ),
        (
          "handles",
          { () throws(DeferredError) in (try sessionHandle.resolve(), try inboxHandle.resolve()) }
        ),
        (
          "child",
          { () throws(DeferredError) in (try shared.resolve(session), try shared.resolve(inbox)) }
        ),
        (
          "child copy",
          { () throws(DeferredError) in
            (try copying.resolve(session), try copying.resolve(inbox))
          }
        ),
      ]
    } catch {
      ledger.violation("registering threw \(error)")
      return {}
    }
    workers.thread("reset") { note in
      var random = random(60)
      for _ in 0..<plan.resets * 3 {
        spin(microseconds: random.int(in: 0...300))
        note("reset")
        counters.beginReset()
        container.reset(scope)
        counters.endReset()
      }
    }
    for worker in 0..<plan.threads {
      workers.thread("reader \(worker)") { note in
        var random = random(61 + worker)
        for _ in 0..<plan.resolves {
          let (name, read) = readers[random.int(below: readers.count)]
          note("read from \(name)")
          do throws(DeferredError) {
            // Every reset that returned before the read reached the session: the session the
            // reader gets is of that generation or a later one, and so must the inbox's be. A
            // session's `generation` (the resets begun when its factory started) is at least
            // the generation its build was claimed in. Serials do not order generations: a
            // build claimed before a reset may start its factory after later generations'
            // builds, and its builder still gets its value (Design.md, "A reset during a
            // build").
            let floor = counters.resetsReturned
            let (got, built) = try read()
            let with = built.made.first
            if let with, with.generation < floor {
              ledger.violation(
                "\(name): the inbox holds session #\(with.serial) of generation at most"
                  + " \(with.generation), after \(floor) resets returned and the same reader got"
                  + " session #\(got.serial)")
            }
          } catch {
            ledger.violation("\(name): a read threw \(error)")
          }
          spin(microseconds: random.int(in: 0...40))
        }
      }
    }
    return {
      // One session a generation: a build per reset at most, and the first.
      let resets = counters.resetsReturned
      if counters.runs("session") > resets + 1 {
        ledger.violation("session built \(counters.runs("session")) times for \(resets) resets")
      }
      _ = (shared, copying)
    }
  }

  // MARK: Argument caches used again from deinits

  /// A caching argument factory whose values' deinits clear the cache or resolve from it
  /// again, and whose arguments' `Hashable` may clear it, resolved from several threads while
  /// the cache's limit drops the oldest and another thread clears it: nothing deadlocks, every
  /// resolve gets a value made for its own argument.
  private func reentrantCaches(
    _ ledger: FeatureLedger, _ counters: FeatureCounters, _ workers: StressWorkers,
    _ probe: FeatureProbe
  ) -> () async -> Void {
    let plan = self.plan
    let container = Container()
    probe.hold(in: container)
    let key = StressLock<FactoryKey<StressReentrantArgument, StressReentrantBox>?>(nil)
    do throws(DeferredError) {
      let registered = try container.register(
        StressReentrantBox.self, argument: StressReentrantArgument.self,
        cachingUpTo: max(1, plan.arguments / 2)
      ) { [weak container] (argument: StressReentrantArgument) in
        let id = argument.id
        _ = counters.run("value \(id)")
        return StressReentrantBox(id) { [weak container] in
          // Used again as it goes: an argument below 100 clears the cache (even) or resolves
          // another value (odd, above 100, whose own deinit does nothing: no endless chain).
          guard id < 100, let container, let key = key.withLock({ $0 }) else { return }
          if id % 2 == 0 {
            container.clearCache(of: key)
          } else {
            _ = try? container.resolve(key, argument: StressReentrantArgument(id: id + 100))
          }
        }
      }
      key.withLock { $0 = registered }
    } catch {
      ledger.violation("registering threw \(error)")
      return {}
    }
    guard let factory = key.withLock({ $0 }) else { return {} }
    for worker in 0..<plan.threads {
      workers.thread("cache \(worker)") { note in
        var random = random(70 + worker)
        for _ in 0..<plan.resolves {
          let id = random.int(below: plan.arguments * 2)
          // Some arguments clear the cache from their `Hashable`.
          let argument = StressReentrantArgument(
            id: id, clearing: random.chance(0.2) ? (container, factory) : nil)
          note("resolve \(id)")
          do throws(DeferredError) {
            let value = try container.resolve(factory, argument: argument)
            if value.id != id { ledger.violation("argument \(id) got the value of \(value.id)") }
          } catch {
            ledger.violation("argument \(id) threw \(error)")
          }
          spin(microseconds: random.int(in: 0...30))
        }
      }
    }
    workers.thread("clear") { note in
      var random = random(79)
      for _ in 0..<plan.resets {
        spin(microseconds: random.int(in: 0...200))
        note("clearCache")
        container.clearCache(of: factory)
      }
    }
    return {
      container.clearCache(of: factory)
      key.withLock { $0 = nil }
    }
  }

  // MARK: Arguments

  /// Argument factories: one that caches nothing (by its form, and with a limit of 0), one
  /// that caches by argument, and two cached ones that need each other for some arguments,
  /// made from several threads. A value made once per argument while cached; a new one on
  /// every resolve otherwise; a loop fails with `.cycle` naming both, on every thread.
  private func arguments(
    _ ledger: FeatureLedger, _ counters: FeatureCounters, _ workers: StressWorkers,
    _ probe: FeatureProbe
  ) -> () async -> Void {
    let plan = self.plan
    let container = Container()
    probe.hold(in: container)
    let made = StressLock<[String: [Int: [FeatureBox]]]>([:])
    let plain: FactoryKey<Int, FeatureBox>
    let zero: FactoryKey<Int, FeatureBox>
    let cached: FactoryKey<Int, FeatureBox>
    let aKey = FactoryKey<Int, FeatureBox>(name: "a")
    let bKey = FactoryKey<Int, FeatureBox>(name: "b")
    do throws(DeferredError) {
      try container.register(FeatureBox.self) { FeatureBox(counters.run("dependency")) }
      plain = try container.register(FeatureBox.self, argument: Int.self, name: "plain") {
        (n: Int) in FeatureBox(counters.run("plain \(n)"))
      }
      zero = try container.register(
        FeatureBox.self, argument: Int.self, name: "zero", cachingUpTo: 0
      ) { (n: Int) in FeatureBox(counters.run("zero \(n)")) }
      cached = try container.register(
        FeatureBox.self, argument: Int.self, name: "cached", cachingUpTo: plan.arguments
      ) { (n: Int, dependency: FeatureBox) in
        spin(microseconds: 50)
        return FeatureBox(counters.run("cached \(n)"), made: [dependency])
      }
      try container.register(
        FeatureBox.self, argument: Int.self, name: "a", cachingUpTo: plan.arguments
      ) { [weak container] (n: Int) in
        let serial = counters.run("a \(n)")
        spin(microseconds: 100)
        guard let container else { throw StressFault(id: n) }
        return FeatureBox(serial, made: [try container.resolve(bKey, argument: n)])
      }
      try container.register(
        FeatureBox.self, argument: Int.self, name: "b", cachingUpTo: plan.arguments
      ) { [weak container] (n: Int) in
        let serial = counters.run("b \(n)")
        spin(microseconds: 100)
        guard plan.loopArguments.contains(n) else { return FeatureBox(serial) }
        guard let container else { throw StressFault(id: n) }
        return FeatureBox(serial, made: [try container.resolve(aKey, argument: n)])
      }
    } catch {
      ledger.violation("registering threw \(error)")
      return {}
    }
    let keys = [("plain", plain), ("zero", zero), ("cached", cached), ("a", aKey), ("b", bKey)]
    for worker in 0..<plan.threads {
      workers.thread("arguments \(worker)") { note in
        var random = random(20 + worker)
        for _ in 0..<plan.resolves {
          let (name, key) = keys[random.int(below: keys.count)]
          let n = random.int(below: plan.arguments)
          note("resolve \(name)(\(n))")
          record("\(name) \(n)", counters, into: ledger.boxes) { () throws(DeferredError) in
            let box = try container.resolve(key, argument: n)
            made.withLock { $0[name, default: [:]][n, default: []].append(box) }
            return box
          }
        }
      }
    }
    return {
      for outcome in ledger.boxes.withLock({ $0 }) {
        let parts = outcome.what.split(separator: " ")
        let (name, n) = (String(parts[0]), Int(parts[1]) ?? -1)
        let loops = (name == "a" || name == "b") && plan.loopArguments.contains(n)
        switch outcome.result {
        case .success where loops:
          ledger.violation("\(outcome.what) was made through a loop")
        case .failure(let error) where !loops:
          ledger.violation("\(outcome.what) failed: \(error)")
        case .failure(let error):
          let names = Set(error.cycle)
          if error.code != .cycle || !names.contains(aKey.description)
            || !names.contains(bKey.description)
          {
            ledger.violation("\(outcome.what) failed without naming the loop: \(error)")
          }
        case .success: break
        }
      }
      let values = made.withLock { $0 }
      for (name, byArgument) in values {
        for (n, boxes) in byArgument {
          let distinct = Set(boxes.map(ObjectIdentifier.init)).count
          switch name {
          case "plain", "zero":
            if distinct != boxes.count || counters.runs("\(name) \(n)") != boxes.count {
              ledger.violation(
                "\(name)(\(n)): \(boxes.count) resolves, \(distinct) values,"
                  + " \(counters.runs("\(name) \(n)")) runs")
            }
          default:
            // Cached: one value an argument, made once (a loop's failed makings aside).
            if distinct != 1 {
              ledger.violation("\(name)(\(n)): \(distinct) values for one argument")
            }
            if counters.runs("\(name) \(n)") != 1 && !plan.loopArguments.contains(n) {
              ledger.violation("\(name)(\(n)) made \(counters.runs("\(name) \(n)")) times")
            }
          }
        }
      }
      // What a(n) was made with is b(n)'s cached value.
      for (n, boxes) in values["a"] ?? [:] {
        guard let b = values["b"]?[n]?.first, let a = boxes.first else { continue }
        if a.made.first !== b { ledger.violation("a(\(n)) was made with another b(\(n))") }
      }
    }
  }

  // MARK: Forwarding

  /// A singleton forwarded as a protocol, resolved by both keys from several threads, and
  /// overridden in a child: one instance for both keys in each container, built once.
  private func forwarding(
    _ ledger: FeatureLedger, _ counters: FeatureCounters, _ workers: StressWorkers,
    _ probe: FeatureProbe
  ) -> () async -> Void {
    let plan = self.plan
    let container = Container()
    probe.hold(in: container)
    let source = ServiceKey<FeatureBox>(name: "source")
    let target = ServiceKey<any StressFeatureService>()
    let child = container.makeChild()
    do throws(DeferredError) {
      try container.register(source) { () -> FeatureBox in
        spin(microseconds: 100)
        return FeatureBox(counters.run("source"))
      }
      try container.forward(source, as: (any StressFeatureService).self) { $0 }
      try child.register(source) { FeatureBox(counters.run("child source"), variant: "child") }
    } catch {
      ledger.violation("registering threw \(error)")
      return {}
    }
    let seen = StressLock<[String: Set<ObjectIdentifier>]>([:])
    for worker in 0..<plan.threads {
      workers.thread("forwarding \(worker)") { note in
        var random = random(30 + worker)
        for _ in 0..<plan.resolves {
          let inChild = random.chance(0.4)
          let place = inChild ? "child" : "parent"
          let resolver = inChild ? child : container
          note("resolve in \(place)")
          do throws(DeferredError) {
            let object: AnyObject =
              random.chance(0.5) ? try resolver.resolve(source) : try resolver.resolve(target)
            seen.withLock { _ = $0[place, default: []].insert(ObjectIdentifier(object)) }
            if let box = object as? FeatureBox, box.variant != (inChild ? "child" : "base") {
              ledger.violation("\(place) got the \(box.variant) source")
            }
          } catch {
            ledger.violation("resolving in \(place) threw \(error)")
          }
        }
      }
    }
    return {
      for (place, objects) in seen.withLock({ $0 }) where objects.count != 1 {
        ledger.violation("\(objects.count) instances in the \(place)")
      }
      if counters.runs("source") > 1 || counters.runs("child source") > 1 {
        ledger.violation(
          "built \(counters.runs("source")) and \(counters.runs("child source")) times")
      }
    }
  }

  // MARK: Collections

  /// Contributions racing resolves of their collection and a child's: what is contributed is
  /// a prefix of what was offered, a refused contribution is refused as too late and leaves
  /// nothing, and every resolve, the parent's and the child's, returns the same array.
  private func collections(
    _ ledger: FeatureLedger, _ counters: FeatureCounters, _ workers: StressWorkers,
    _ probe: FeatureProbe
  ) -> () async -> Void {
    let plan = self.plan
    let container = Container()
    probe.hold(in: container)
    let numbers = CollectionKey<Int>(name: "numbers")
    workers.thread("contributor") { note in
      var random = random(40)
      for member in 0..<plan.contributions {
        if member == plan.childAfter {
          workers.thread("child") { note in
            note("child resolve")
            let child = container.makeChild()
            for _ in 0..<3 {
              record("child", counters, into: ledger.arrays) { () throws(DeferredError) in
                try child.resolve(numbers)
              }
            }
          }
        }
        spin(microseconds: random.int(in: 0...200))
        note("contribute \(member)")
        do throws(DeferredError) {
          try container.contribute(to: numbers) { member }
          ledger.contributed.withLock { $0.append((member, nil)) }
        } catch {
          ledger.contributed.withLock { $0.append((member, error)) }
        }
      }
    }
    for worker in 0..<plan.threads {
      workers.thread("collection \(worker)") { note in
        var random = random(41 + worker)
        for _ in 0..<random.int(in: 1...6) {
          spin(microseconds: random.int(in: 0...400))
          note("resolve")
          record("parent", counters, into: ledger.arrays) { () throws(DeferredError) in
            try container.resolve(numbers)
          }
        }
      }
    }
    return {
      let contributed = ledger.contributed.withLock { $0 }
      let accepted = contributed.filter { $0.1 == nil }.map(\.0)
      if accepted != Array(0..<accepted.count) {
        ledger.violation("contributions accepted after one was refused: \(accepted)")
      }
      for (member, error) in contributed {
        if let error, error.code != .registrationTooLate {
          ledger.violation("contributing \(member) threw \(error)")
        }
      }
      let final = Result { () throws(DeferredError) in try container.resolve(numbers) }
      guard case .success(let all) = final else {
        ledger.violation("the last resolve failed: \(final)")
        return
      }
      if all != accepted { ledger.violation("the collection is \(all), accepted \(accepted)") }
      for outcome in ledger.arrays.withLock({ $0 }) {
        switch outcome.result {
        case .success(let array) where array != all:
          ledger.violation("the \(outcome.what) got \(array), then \(all)")
        case .failure(let error):
          ledger.violation("the \(outcome.what)'s resolve threw \(error)")
        default: break
        }
      }
    }
  }

  // MARK: Handles

  /// Handles to a singleton, a transient and (in a child that overrides their dependency) the
  /// child's copy, resolved from several threads while the container shuts down: each resolve
  /// gets the one instance (the child's, made with its override), or fails with `shutDown`
  /// once the shutdown began; a resolve begun after it returned fails.
  private func handles(
    _ ledger: FeatureLedger, _ counters: FeatureCounters, _ workers: StressWorkers,
    _ probe: FeatureProbe
  ) -> () async -> Void {
    let plan = self.plan
    let container = Container()
    probe.hold(in: container)
    let dependency = ServiceKey<FeatureBox>(name: "dependency")
    let service = ServiceKey<FeatureBox>(name: "service")
    let transient = ServiceKey<FeatureBox>(name: "transient")
    let child = container.makeChild()
    let handles: [(String, ServiceHandle<FeatureBox>)]
    do throws(DeferredError) {
      try container.register(dependency) { FeatureBox(counters.run("dependency")) }
      try container.register(service, dependencies: dependency) { (dependency: FeatureBox) in
        spin(microseconds: 50)
        return FeatureBox(counters.run("service"), made: [dependency])
      }
      try container.register(transient, scope: .transient, dependencies: dependency) {
        (dependency: FeatureBox) in FeatureBox(counters.run("transient"), made: [dependency])
      }
      try child.register(dependency) {
        FeatureBox(counters.run("child dependency"), variant: "child")
      }
      handles = [
        ("service", try container.handle(for: service)),
        ("transient", try container.handle(for: transient)),
        ("child service", try child.handle(for: service)),
      ]
    } catch {
      ledger.violation("registering threw \(error)")
      return {}
    }
    workers.thread("shutDown") { note in
      spin(microseconds: plan.shutDownAfter)
      note("shutDown()")
      ledger.events.withLock { $0["begun"] = counters.tick() }
      container.shutDown()
      ledger.events.withLock { $0["returned"] = counters.tick() }
    }
    for worker in 0..<plan.threads {
      workers.thread("handles \(worker)") { note in
        var random = random(50 + worker)
        for _ in 0..<plan.resolves {
          let (name, handle) = handles[random.int(below: handles.count)]
          note("resolve \(name)")
          record(name, counters, into: ledger.boxes) { () throws(DeferredError) in
            try handle.resolve()
          }
          spin(microseconds: random.int(in: 0...100))
        }
      }
    }
    return {
      let events = ledger.events.withLock { $0 }
      let begun = events["begun"] ?? .max
      let returned = events["returned"] ?? .max
      var instances: [String: Set<ObjectIdentifier>] = [:]
      for outcome in ledger.boxes.withLock({ $0 }) {
        switch outcome.result {
        case .success(let box):
          // The child's copy is the child's own: it may be built after its parent shut down.
          if outcome.start > returned && outcome.what != "child service" {
            ledger.violation("\(outcome.what) resolved after shutDown() returned")
          }
          let made = box.made.first?.variant
          if made != (outcome.what == "child service" ? "child" : "base") {
            ledger.violation("\(outcome.what) was made with the \(made ?? "no") dependency")
          }
          if outcome.what != "transient" {
            instances[outcome.what, default: []].insert(ObjectIdentifier(box))
          }
        case .failure(let error):
          if error.code != .shutDown || outcome.end < begun {
            ledger.violation("\(outcome.what) failed: \(error)")
          }
        }
      }
      for (what, objects) in instances where objects.count > 1 {
        ledger.violation("\(objects.count) instances of \(what)")
      }
    }
  }

  // MARK: Main actor

  /// Main-actor services built on the main lane after the first frame, resolved meanwhile from
  /// background threads (directly, and through a service that needs one): one instance each,
  /// built once, and `whenReady` delivered once.
  private func mainActor(
    _ ledger: FeatureLedger, _ counters: FeatureCounters, _ workers: StressWorkers,
    _ probe: FeatureProbe
  ) -> () async -> Void {
    let plan = self.plan
    let container = Container()
    probe.hold(in: container)
    let first = ServiceKey<FeatureMainBox>(name: "first")
    let second = ServiceKey<FeatureMainBox>(name: "second")
    let plainKey = ServiceKey<FeatureBox>(name: "plain")
    let needsMain = ServiceKey<FeatureBox>(name: "needs main")
    let seen = StressLock<[String: Set<ObjectIdentifier>]>([:])
    do throws(DeferredError) {
      try container.register(plainKey, priority: .afterFirstFrame()) {
        FeatureBox(counters.run("plain"))
      }
      try container.registerMainActor(
        FeatureMainBox.self, name: "first", priority: .afterFirstFrame()
      ) { FeatureMainBox(counters.run("first")) }
      try container.registerMainActor(
        second, priority: .afterFirstFrame(), dependencies: plainKey
      ) { (_: FeatureBox) in FeatureMainBox(counters.run("second")) }
      try container.register(needsMain, dependencies: first) { (_: FeatureMainBox) in
        FeatureBox(counters.run("needs main"))
      }
      try container.launch()
      try container.firstFrameDrawn()
    } catch {
      ledger.violation("registering or launching threw \(error)")
      return {}
    }
    let queue = DispatchQueue(label: "stress.features.main.whenReady")
    do throws(DeferredError) {
      try container.whenReady(FeatureMainBox.self, name: "second", on: queue) { _ in
        ledger.deliver(0)
      }
    } catch {
      ledger.violation("whenReady threw \(error)")
    }
    for worker in 0..<plan.threads {
      workers.thread("main actor \(worker)") { note in
        var random = random(60 + worker)
        for _ in 0..<min(plan.resolves, 12) {
          let pick = random.int(below: 3)
          let name = ["first", "second", "needs main"][pick]
          note("resolve \(name)")
          do throws(DeferredError) {
            let object: AnyObject =
              switch pick {
              case 0: try container.resolve(first)
              case 1: try container.resolve(second)
              default: try container.resolve(needsMain)
              }
            seen.withLock { _ = $0[name, default: []].insert(ObjectIdentifier(object)) }
          } catch {
            ledger.violation("resolving \(name) threw \(error)")
          }
        }
      }
    }
    return {
      for (name, objects) in seen.withLock({ $0 }) where objects.count != 1 {
        ledger.violation("\(objects.count) instances of \(name)")
      }
      for name in ["first", "second", "needs main", "plain"] where counters.runs(name) > 1 {
        ledger.violation("\(name) built \(counters.runs(name)) times")
      }
      _ = try? container.resolve(second)
      await ledger.awaitDeliveries(1, on: queue)
      let delivered = ledger.delivered.withLock { $0[0] ?? 0 }
      if delivered != 1 {
        ledger.violation("whenReady of a main-actor service delivered \(delivered) times")
      }
      container.shutDown()
    }
  }
}

/// A cached value that runs `onDeinit` as it goes.
final class StressReentrantBox: Sendable {
  let id: Int
  private let onDeinit: @Sendable () -> Void

  init(_ id: Int, onDeinit: @escaping @Sendable () -> Void) {
    self.id = id
    self.onDeinit = onDeinit
  }

  deinit { onDeinit() }
}

/// An argument whose `Hashable` clears the cache it is looked up in, when it is given one (the
/// container held weakly: the cache keeps its arguments).
struct StressReentrantArgument: Hashable, Sendable {
  let id: Int
  weak var container: Container?
  let key: FactoryKey<StressReentrantArgument, StressReentrantBox>?

  init(
    id: Int, clearing: (Container, FactoryKey<StressReentrantArgument, StressReentrantBox>)? = nil
  ) {
    self.id = id
    container = clearing?.0
    key = clearing?.1
  }

  static func == (left: Self, right: Self) -> Bool {
    left.clear()
    return left.id == right.id
  }

  func hash(into hasher: inout Hasher) {
    clear()
    hasher.combine(id)
  }

  private func clear() {
    if let container, let key { container.clearCache(of: key) }
  }
}
