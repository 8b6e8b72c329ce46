import Dispatch
import Testing

@testable import Deferred

/// A value tagged with the number it was made with.
private final class Tagged: Sendable {
  let tag: Int
  init(_ tag: Int) { self.tag = tag }
}

/// A service made with a ``Tagged``, reading it from a resolver.
private final class Reader: Sendable {
  let tagged: Tagged
  init(_ tagged: Tagged) { self.tagged = tagged }
}

/// A main-actor object.
@MainActor private final class Screen {
  init() { MainActor.assertIsolated() }
}

/// Runs `body` on a thread of its own; `wait(seconds:)` returns what it returned or threw, or
/// `nil` (and records an issue) if it did not end in time: a hang fails the test instead of
/// stopping it.
private final class Bounded<Value: Sendable>: Sendable {
  private let outcome = Locked<Result<Value, DeferredError>?>(nil)
  private let done = DispatchSemaphore(value: 0)

  init(_ body: @escaping @Sendable () throws(DeferredError) -> Value) {
    Thread.detach { [outcome, done] in
      let result = Result { () throws(DeferredError) -> Value in try body() }
      outcome.withLock { $0 = result }
      done.signal()
    }
  }

  func wait(seconds: Int = 20, _ what: String) -> Result<Value, DeferredError>? {
    guard done.wait(timeout: .now() + .seconds(seconds)) == .success else {
      Issue.record("\(what) did not end within \(seconds) s: it hangs")
      return nil
    }
    return outcome.withLock { $0 }
  }
}

@Suite struct RobustnessTests {
  // MARK: Argument factories

  @Test func cachedArgumentFactoriesThatNeedEachOtherOnTwoThreadsFailWithTheLoop() throws {
    let container = Container()
    let aKey = FactoryKey<Int, Tagged>(name: "a")
    let bKey = FactoryKey<Int, Tagged>(name: "b")
    let aStarted = Signal()
    let bStarted = Signal()
    let firstRuns = Locked<Set<String>>([])
    // Each factory, on its first run, waits until the other has started: both are making
    // when each asks for the other. The factories hold the container unowned: the container
    // keeps an argument factory for as long as it lives, so a strong capture would be a cycle.
    @Sendable func handshake(_ name: String, mine: Signal, theirs: Signal) {
      guard firstRuns.withLock({ $0.insert(name).inserted }) else { return }
      mine.fire()
      theirs.wait()
    }
    try container.register(Tagged.self, argument: Int.self, name: "a", cachingUpTo: 10) {
      [unowned container] (n: Int) in
      handshake("a", mine: aStarted, theirs: bStarted)
      return Tagged(try container.resolve(bKey, argument: n).tag + 1)
    }
    try container.register(Tagged.self, argument: Int.self, name: "b", cachingUpTo: 10) {
      [unowned container] (n: Int) in
      handshake("b", mine: bStarted, theirs: aStarted)
      return Tagged(try container.resolve(aKey, argument: n).tag + 1)
    }
    let first = Bounded { () throws(DeferredError) in try container.resolve(aKey, argument: 1) }
    let second = Bounded { () throws(DeferredError) in try container.resolve(bKey, argument: 1) }
    for (result, name) in [(first.wait("a(1)"), "a(1)"), (second.wait("b(1)"), "b(1)")] {
      guard let result else { continue }
      guard case .failure(let error) = result else {
        Issue.record("\(name) was made, through a loop")
        continue
      }
      #expect(error.code == .cycle, "\(error)")
      #expect(Set(error.cycle) == ["Tagged(Int)[\"a\"]", "Tagged(Int)[\"b\"]"], "\(error)")
      #expect(error.cycle.first == error.cycle.last)
    }
  }

  @Test func aCachedArgumentFactoryMayTakeANamedScopeService() throws {
    let container = Container()
    let runs = Runs()
    try container.register(Tagged.self, scope: .named("session")) {
      runs.tick("Tagged")
      return Tagged(runs["Tagged"])
    }
    let key = try container.register(Reader.self, argument: Int.self, cachingUpTo: 10) {
      (_: Int, tagged: Tagged) in Reader(tagged)
    }
    let first = try container.resolve(key, argument: 1)
    #expect(try container.resolve(key, argument: 1) === first)
    #expect(first.tagged.tag == 1)
    container.clearCache(of: key)
    let cleared = try container.resolve(key, argument: 1)
    #expect(cleared !== first && cleared.tagged === first.tagged)
    // A reset of the scope drops the cache made with its value: nothing of the old session.
    container.reset(.named("session"))
    let after = try container.resolve(key, argument: 1)
    #expect(after.tagged.tag == 2)
    #expect(try container.resolve(key, argument: 1) === after)
  }

  @Test func aCacheLimitOfZeroCachesNothingAndANegativeOneIsRefused() throws {
    let container = Container()
    let runs = Runs()
    let zero = try container.register(Tagged.self, argument: Int.self, cachingUpTo: 0) {
      (n: Int) in
      runs.tick("zero")
      return Tagged(n)
    }
    let first = try container.resolve(zero, argument: 7)
    #expect(try container.resolve(zero, argument: 7) !== first)
    #expect(runs["zero"] == 2)
    let error = #expect(throws: DeferredError.self) {
      try container.register(Tagged.self, argument: Int.self, name: "n", cachingUpTo: -1) {
        (n: Int) in Tagged(n)
      }
    }
    #expect(error?.code == .outOfRange)
    #expect(
      error?.description
        == "Tagged(Int)[\"n\"] cannot be registered with cachingUpTo: -1: a cache holds 0 values"
        + " (none: nothing is cached) or more.")
    // Nothing was registered: the key is free.
    let key = try container.register(
      Tagged.self, argument: Int.self, name: "n", cachingUpTo: 1
    ) { (n: Int) in Tagged(n) }
    #expect(try container.resolve(key, argument: 3).tag == 3)
  }

  // MARK: Main actor

  @Test func aMainActorTransientAwaitedFromADetachedTaskIsMadeOnTheMainActor() async throws {
    let container = Container(scheduler: ManualScheduler())
    let runs = Runs()
    try container.registerMainActor(Screen.self, scope: .transient) {
      runs.tick("Screen")
      return Screen()
    }
    let made = try await Task.detached {
      try await container.awaitService(Screen.self)
    }.value
    let again = try await Task.detached {
      try await container.awaitService(Screen.self)
    }.value
    #expect(made !== again)
    #expect(runs["Screen"] == 2)
  }

  // MARK: Collections

  @Test func aContributionRefusedAsTooLateLeavesNothingBehind() throws {
    let parent = Container()
    let numbers = CollectionKey<Int>(name: "n")
    try parent.contribute(to: numbers) { 1 }
    try parent.register(Tagged.self) { Tagged(0) }
    let child = parent.makeChild()
    try child.register(Reader.self) { Reader(Tagged(1)) }
    _ = try child.resolve(Tagged.self)
    for member in [2, 3] {
      let error = #expect(throws: DeferredError.self) {
        try parent.contribute(to: numbers) { member }
      }
      #expect(error?.code == .registrationTooLate, "\(String(describing: error))")
    }
    #expect(try parent.resolve(numbers) == [1])
    #expect(try child.resolve(numbers) == [1])
    #expect(parent.launchReport().builds.count == 3)
  }

  @Test func anEmptyCollectionHandedOutTakesNoContribution() throws {
    let container = Container()
    let numbers = CollectionKey<Int>(name: "n")
    #expect(try container.resolve(numbers) == [])
    let error = #expect(throws: DeferredError.self) {
      try container.contribute(to: numbers) { 1 }
    }
    #expect(error?.code == .registrationTooLate)
    #expect(try container.resolve(numbers) == [])
    // Another collection of the same element is another key: still open.
    let others = CollectionKey<Int>(name: "others")
    try container.contribute(to: others) { 2 }
    #expect(try container.resolve(others) == [2])
  }

  @Test func anEmptyCollectionAChildHandedOutTakesNoContributionInItsParent() throws {
    let parent = Container()
    let numbers = CollectionKey<Int>()
    let child = parent.makeChild()
    #expect(try child.resolve(numbers) == [])
    let error = #expect(throws: DeferredError.self) { try parent.contribute(to: numbers) { 1 } }
    #expect(error?.code == .registrationTooLate)
    #expect(try child.resolve(numbers) == [])
  }

  @Test func anEmptyCollectionAFactoryHandedOutTakesNoContribution() throws {
    let container = Container()
    let numbers = CollectionKey<Int>()
    try container.register(Tagged.self) { resolver in Tagged(try resolver.resolve(numbers).count) }
    #expect(try container.resolve(Tagged.self).tag == 0)
    let error = #expect(throws: DeferredError.self) {
      try container.contribute(to: numbers) { 1 }
    }
    #expect(error?.code == .registrationTooLate)
  }

  // MARK: Children after a shutdown

  @Test func aGrandchildKeepsItsOverrideAfterTheRootShutsDown() throws {
    let root = Container()
    try root.register(Tagged.self) { Tagged(0) }
    try root.register(Reader.self) { resolver in Reader(try resolver.resolve(Tagged.self)) }
    let child = root.makeChild()
    try child.register(Tagged.self) { Tagged(1) }
    let grandchild = child.makeChild()
    try grandchild.register(Tagged.self) { Tagged(2) }
    #expect(try child.resolve(Reader.self).tagged.tag == 1)
    root.shutDown()
    // Whatever the grandchild hands out was made with its own override, or nothing is.
    switch Result(catching: { () throws(DeferredError) in try grandchild.resolve(Reader.self) }) {
    case .success(let reader): #expect(reader.tagged.tag == 2)
    case .failure(let error): #expect(error.code == .shutDown)
    }
    // Work handed to it gets the grandchild's own instance, if it gets one.
    let delivered = Locked<[Int]>([])
    let done = Signal()
    let queued =
      (try? grandchild.whenReady(Reader.self, on: .global()) { reader in
        delivered.withLock { $0.append(reader.tagged.tag) }
        done.fire()
      }) != nil
    if queued, (try? grandchild.resolve(Reader.self)) != nil {
      done.wait()
      #expect(delivered.withLock { $0 } == [2])
    }
  }

  @Test func aGrandchildNeverTakesItsParentsInstanceOfAServiceItOverridesADependencyOf() throws {
    let root = Container()
    try root.register(Tagged.self) { Tagged(0) }
    try root.register(Reader.self) { (tagged: Tagged) in Reader(tagged) }
    let child = root.makeChild()
    try child.register(Tagged.self) { Tagged(1) }
    let grandchild = child.makeChild()
    try grandchild.register(Tagged.self) { Tagged(2) }
    #expect(try child.resolve(Reader.self).tagged.tag == 1)
    root.shutDown()
    switch Result(catching: { () throws(DeferredError) in try grandchild.resolve(Reader.self) }) {
    case .success(let reader): #expect(reader.tagged.tag == 2)
    case .failure(let error): #expect(error.code == .shutDown)
    }
  }
}
