import Testing

@testable import Deferred

/// The fixed-arity `register(_:name:scope:priority:replacing:_:)` overloads (factories of up to
/// six parameters, kept for compile time) and the pack form beyond them: each declares its
/// parameters as dependencies, in order, resolves them by type, honours its options, and fails
/// with the same typed errors.
@Suite struct RegisterArityTests {
  /// Seven distinct services, a dependency each, holding the number it was made from.
  struct P1: Sendable { let value: Int }
  struct P2: Sendable { let value: Int }
  struct P3: Sendable { let value: Int }
  struct P4: Sendable { let value: Int }
  struct P5: Sendable { let value: Int }
  struct P6: Sendable { let value: Int }
  struct P7: Sendable { let value: Int }
  /// What a factory made: the values of its dependencies, in parameter order.
  struct Made: Sendable { let values: [Int] }
  struct Failure: Error {}
  /// A service made by its initialiser.
  struct Pair: Sendable {
    let first: P2
    let second: P1
  }

  private func parts(_ container: Container) throws {
    try container.register(P1.self) { P1(value: 1) }
    try container.register(P2.self) { P2(value: 2) }
    try container.register(P3.self) { P3(value: 3) }
    try container.register(P4.self) { P4(value: 4) }
    try container.register(P5.self) { P5(value: 5) }
    try container.register(P6.self) { P6(value: 6) }
    try container.register(P7.self) { P7(value: 7) }
  }

  private func dependencies(_ container: Container, _ name: String? = nil) throws -> [String] {
    let node = try #require(container.lookup(ServiceKey<Made>(name: name).erased))
    return try #require(node.dependencies).map(\.description)
  }

  private let names = [
    "P1", "P2", "P3",
    "P4", "P5", "P6",
    "P7",
  ]

  @Test(arguments: 0...7) func everyArityDeclaresAndResolvesItsParametersInOrder(arity: Int)
    throws
  {
    let container = Container()
    try parts(container)
    let runs = Runs()
    switch arity {
    case 0:
      try container.register(Made.self) {
        runs.tick("made")
        return Made(values: [])
      }
    case 1:
      try container.register(Made.self) { (a: P1) in
        runs.tick("made")
        return Made(values: [a.value])
      }
    case 2:
      // Argument order differs from declaration order: the parameters' order is what counts.
      try container.register(Made.self) { (b: P2, a: P1) in
        runs.tick("made")
        return Made(values: [b.value, a.value])
      }
    case 3:
      try container.register(Made.self) { (a: P1, b: P2, c: P3) in
        runs.tick("made")
        return Made(values: [a.value, b.value, c.value])
      }
    case 4:
      try container.register(Made.self) { (a: P1, b: P2, c: P3, d: P4) in
        runs.tick("made")
        return Made(values: [a.value, b.value, c.value, d.value])
      }
    case 5:
      try container.register(Made.self) { (a: P1, b: P2, c: P3, d: P4, e: P5) in
        runs.tick("made")
        return Made(values: [a.value, b.value, c.value, d.value, e.value])
      }
    case 6:
      try container.register(Made.self) { (a: P1, b: P2, c: P3, d: P4, e: P5, f: P6) in
        runs.tick("made")
        return Made(values: [a.value, b.value, c.value, d.value, e.value, f.value])
      }
    default:
      // Beyond the fixed arities: the pack form.
      try container.register(Made.self) {
        (a: P1, b: P2, c: P3, d: P4, e: P5, f: P6, g: P7) in
        runs.tick("made")
        return Made(values: [a.value, b.value, c.value, d.value, e.value, f.value, g.value])
      }
    }
    let expected = arity == 2 ? [2, 1] : Array(stride(from: 1, through: arity, by: 1))
    #expect(try dependencies(container) == expected.map { names[$0 - 1] })
    #expect(container.validate().isEmpty)
    #expect(runs.total == 0)  // registering runs nothing
    #expect(try container.resolve(Made.self).values == expected)
    #expect(try container.resolve(Made.self).values == expected)
    #expect(runs.total == 1)  // a singleton
  }

  @Test func initializerReferencesPickTheFixedArities() throws {
    let container = Container()
    try parts(container)
    try container.register(Pair.self, Pair.init(first:second:))
    let node = try #require(container.lookup(ServiceKey<Pair>().erased))
    #expect(try #require(node.dependencies).map(\.description) == [names[1], names[0]])
    let pair = try container.resolve(Pair.self)
    #expect(pair.first.value == 2 && pair.second.value == 1)
  }

  @Test func aMissingDependencyIsNamedWithItsChain() throws {
    let container = Container()
    try container.register(P1.self) { P1(value: 1) }
    try container.register(Made.self) { (a: P1, c: P3) in Made(values: [a.value, c.value]) }
    let issues = container.validate()
    #expect(issues.map(\.service) == ["P3"])
    #expect(issues.first?.chain == ["Made", "P3"])
    let error = try #require(throws: DeferredError.self) { try container.resolve(Made.self) }
    #expect(error.code == .missingService)
    #expect(error.chain == ["Made", "P3"])
  }

  @Test func aThrowingFactoryAndADuplicateGiveTypedErrors() throws {
    let container = Container()
    try parts(container)
    try container.register(Made.self) { (_: P1) throws -> Made in throw Failure() }
    let failed = try #require(throws: DeferredError.self) { try container.resolve(Made.self) }
    #expect(failed.code == .factoryFailed)
    #expect(failed.service == "Made")
    #expect(failed.underlying is Failure)
    let duplicate = try #require(throws: DeferredError.self) {
      try container.register(Made.self) { (a: P1, b: P2) in Made(values: [a.value, b.value]) }
    }
    #expect(duplicate.code == .duplicateRegistration)
    #expect(duplicate.service == "Made")
    // The pack form reports the same.
    let packDuplicate = try #require(throws: DeferredError.self) {
      try container.register(Made.self) {
        (_: P1, _: P2, _: P3, _: P4, _: P5, _: P6, _: P7) in Made(values: [])
      }
    }
    #expect(packDuplicate.code == .duplicateRegistration)
  }

  /// Registers `Made` by the fixed-arity overload of `arity` parameters, with options; the
  /// factory ticks `tag` and makes the values of its dependencies, in parameter order.
  private func register(
    _ container: Container, arity: Int, name: String? = nil, scope: Scope = .singleton,
    priority: Priority = .onDemand, replacing: Bool = false, runs: Runs, tag: String
  ) throws {
    switch arity {
    case 0:
      try container.register(
        Made.self, name: name, scope: scope, priority: priority, replacing: replacing
      ) {
        runs.tick(tag)
        return Made(values: [])
      }
    case 1:
      try container.register(
        Made.self, name: name, scope: scope, priority: priority, replacing: replacing
      ) { (a: P1) in
        runs.tick(tag)
        return Made(values: [a.value])
      }
    case 2:
      try container.register(
        Made.self, name: name, scope: scope, priority: priority, replacing: replacing
      ) { (b: P2, a: P1) in
        runs.tick(tag)
        return Made(values: [b.value, a.value])
      }
    case 3:
      try container.register(
        Made.self, name: name, scope: scope, priority: priority, replacing: replacing
      ) { (a: P1, b: P2, c: P3) in
        runs.tick(tag)
        return Made(values: [a.value, b.value, c.value])
      }
    case 4:
      try container.register(
        Made.self, name: name, scope: scope, priority: priority, replacing: replacing
      ) { (a: P1, b: P2, c: P3, d: P4) in
        runs.tick(tag)
        return Made(values: [a.value, b.value, c.value, d.value])
      }
    case 5:
      try container.register(
        Made.self, name: name, scope: scope, priority: priority, replacing: replacing
      ) { (a: P1, b: P2, c: P3, d: P4, e: P5) in
        runs.tick(tag)
        return Made(values: [a.value, b.value, c.value, d.value, e.value])
      }
    default:
      try container.register(
        Made.self, name: name, scope: scope, priority: priority, replacing: replacing
      ) { (a: P1, b: P2, c: P3, d: P4, e: P5, f: P6) in
        runs.tick(tag)
        return Made(values: [a.value, b.value, c.value, d.value, e.value, f.value])
      }
    }
  }

  @Test(arguments: 0...6) func everyArityHonoursItsPriorityAndName(arity: Int) throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try parts(container)
    let runs = Runs()
    try register(
      container, arity: arity, name: "made", priority: .afterFirstFrame(.userInitiated),
      runs: runs, tag: "made")
    let expected = arity == 2 ? [2, 1] : Array(stride(from: 1, through: arity, by: 1))
    #expect(try dependencies(container, "made") == expected.map { names[$0 - 1] })
    #expect(container.lookup(ServiceKey<Made>().erased) == nil)  // only under its name
    try container.launch()
    #expect(runs.total == 0)
    try container.firstFrameDrawn()
    _ = scheduler.runAll()
    #expect(runs["made"] == 1)  // built after the first frame, nobody having asked
    let record = try #require(
      container.launchReport().builds.first { $0.service == #"Made["made"]"# })
    #expect(record.priority == .afterFirstFrame(.userInitiated))
    #expect(record.trigger == .scheduled)
    #expect(try container.resolve(Made.self, name: "made").values == expected)
    #expect(runs["made"] == 1)
  }

  @Test(arguments: 0...6) func everyArityHonoursItsScopeAndReplacing(arity: Int) throws {
    let container = Container()
    try parts(container)
    let runs = Runs()
    try register(container, arity: arity, scope: .transient, runs: runs, tag: "first")
    #expect(try container.resolve(Made.self).values.count == arity)
    #expect(try container.resolve(Made.self).values.count == arity)
    #expect(runs["first"] == 2)  // transient: made anew each time
    let duplicate = try #require(throws: DeferredError.self) {
      try register(container, arity: arity, runs: runs, tag: "duplicate")
    }
    #expect(duplicate.code == .duplicateRegistration)
    #expect(duplicate.service == "Made")
    let replaced = Container()
    try parts(replaced)
    try register(replaced, arity: arity, runs: runs, tag: "old")
    try register(replaced, arity: arity, replacing: true, runs: runs, tag: "new")
    _ = try replaced.resolve(Made.self)
    _ = try replaced.resolve(Made.self)
    #expect(runs["new"] == 1 && runs["old"] == 0)  // the replacement, a singleton
    #expect(runs["duplicate"] == 0)
    let weak = try #require(throws: DeferredError.self) {
      try register(Container(), arity: arity, scope: .weakObject, runs: runs, tag: "weak")
    }
    #expect(weak.code == .invalidScope)  // a struct cannot be held weakly
    #expect(weak.service == "Made")
  }

  @Test func theResolverAndPackFormsKeepTheirOverloadsWithOptions() throws {
    let container = Container()
    try parts(container)
    // `{ r in … }` and `{ _ in … }` stay the resolver form, options or not: their dependencies
    // are recorded as they are resolved, not declared.
    try container.register(Made.self, name: "resolver", priority: .afterFirstFrame()) { r in
      Made(values: [try r.resolve(P1.self).value])
    }
    try container.register(Made.self, name: "ignored", scope: .transient) { _ in
      Made(values: [])
    }
    try container.register(Made.self, name: "plain") { _ in Made(values: [0]) }
    for name in ["resolver", "ignored", "plain"] {
      let node = try #require(container.lookup(ServiceKey<Made>(name: name).erased))
      #expect(node.dependencies == nil)
    }
    #expect(try container.resolve(Made.self, name: "resolver").values == [1])
    // Seven parameters with options: the pack form, its dependencies declared in order.
    try container.register(Made.self, name: "pack", scope: .transient) {
      (a: P1, b: P2, c: P3, d: P4, e: P5, f: P6, g: P7) in
      Made(values: [a.value, b.value, c.value, d.value, e.value, f.value, g.value])
    }
    #expect(try dependencies(container, "pack") == names)
    #expect(try container.resolve(Made.self, name: "pack").values == Array(1...7))
  }
}
