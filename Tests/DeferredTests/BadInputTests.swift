import DeferredHistory
import DeferredReports
import Dispatch
import Testing

@testable import Deferred

/// A value for the sweep: which registration made it.
private final class Made: Sendable {
  let label: String
  init(_ label: String) { self.label = label }
}

/// Names a user may give, from the ordinary to the absurd: each must register, resolve, be
/// named in errors and reports, and never crash or hang.
private let oddNames: [(String, String)] = [
  ("empty", ""),
  ("space", " "),
  ("a million characters", String(repeating: "x", count: 1_000_000)),
  ("a million characters, one apart", String(repeating: "x", count: 999_999) + "y"),
  ("NUL", "a\u{0}b"),
  ("newline and quote", "line\n\"quoted\"\\"),
  ("combining accent", "cafe\u{301}"),
  ("right to left", "\u{202E}olleh"),
  ("family emoji", "👨‍👩‍👧‍👦"),
  ("zero width joiner alone", "\u{200D}"),
  ("private use", "\u{F8FF}"),
  ("replacement character", "\u{FFFD}"),
  ("astral plane", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢"),
]

@Suite struct BadInputTests {
  // MARK: Names

  @Test(arguments: oddNames.map(\.0))
  func anOddNameRegistersResolvesAndIsNamed(_ label: String) throws {
    let name = try #require(oddNames.first { $0.0 == label }?.1)
    let container = Container(scheduler: ManualScheduler())
    try container.register(Made.self, name: name) { Made(name) }
    #expect(try container.resolve(Made.self, name: name).label == name)
    // The unnamed key is another key: missing, and the error names it.
    let missing = #expect(throws: DeferredError.self) { try container.resolve(Made.self) }
    #expect(missing?.code == .missingService)
    // Registering it again is a duplicate, named with its name.
    let duplicate = #expect(throws: DeferredError.self) {
      try container.register(Made.self, name: name) { Made("again") }
    }
    #expect(duplicate?.code == .duplicateRegistration)
    #expect(duplicate?.service == ServiceKey<Made>(name: name).description)
    // A name one character longer is missing, with suggestions, in bounded time.
    let near = #expect(throws: DeferredError.self) {
      try container.resolve(Made.self, name: name + "z")
    }
    #expect(near?.code == .missingService)
    // The report and its renderings hold the name.
    let report = container.launchReport()
    #expect(report.builds.count == 1)
    _ = report.text()
    _ = report.json()
    _ = report.dot()
  }

  @Test func canonicallyEquivalentNamesAreOneKey() throws {
    let container = Container()
    try container.register(Made.self, name: "caf\u{E9}") { Made("precomposed") }
    #expect(try container.resolve(Made.self, name: "cafe\u{301}").label == "precomposed")
    let error = #expect(throws: DeferredError.self) {
      try container.register(Made.self, name: "cafe\u{301}") { Made("decomposed") }
    }
    #expect(error?.code == .duplicateRegistration)
  }

  @Test(arguments: oddNames.map(\.0))
  func anOddScopeNameHoldsAndResets(_ label: String) throws {
    let name = try #require(oddNames.first { $0.0 == label }?.1)
    let container = Container()
    let runs = Runs()
    try container.register(Made.self, scope: .named(name)) {
      runs.tick("made")
      return Made(name)
    }
    let first = try container.resolve(Made.self)
    #expect(try container.resolve(Made.self) === first)
    #expect(container.reset(.named(name)) == ["Made"])
    #expect(try container.resolve(Made.self) !== first)
    #expect(runs["made"] == 2)
    // Another name, close or not, resets nothing.
    #expect(container.reset(.named(name + "z")) == [])
  }

  @Test(arguments: oddNames.map(\.0))
  func anOddNameKeysCollectionsArgumentFactoriesForwardsAndHandles(_ label: String) throws {
    let name = try #require(oddNames.first { $0.0 == label }?.1)
    let container = Container()
    let collection = CollectionKey<Int>(name: name)
    try container.contribute(to: collection) { 1 }
    #expect(try container.resolve(collection) == [1])
    let factory = try container.register(
      Made.self, argument: Int.self, name: name, cachingUpTo: 1
    ) { (n: Int) in Made("\(n)") }
    #expect(try container.resolve(factory, argument: 3).label == "3")
    try container.register(Made.self, name: name) { Made(name) }
    try container.forward(ServiceKey<Made>(name: name), as: Made.self, name: name + "!") { $0 }
    #expect(try container.resolve(Made.self, name: name + "!").label == name)
    let handle = try container.handle(Made.self, name: name)
    #expect(try handle.resolve().label == name)
    let missing = #expect(throws: DeferredError.self) {
      try container.whenReady(Made.self, name: name + "?", on: .global()) { _ in }
    }
    #expect(missing?.code == .missingService)
  }

  // MARK: Limits and sizes

  @Test(arguments: [0, 1, Int.max])
  func anyCacheLimitFromZeroUpIsDefined(_ limit: Int) throws {
    let container = Container()
    let runs = Runs()
    let key = try container.register(Made.self, argument: Int.self, cachingUpTo: limit) {
      (n: Int) in
      runs.tick("made")
      return Made("\(n)")
    }
    let first = try container.resolve(key, argument: 1)
    let again = try container.resolve(key, argument: 1)
    #expect((first === again) == (limit > 0))
    container.clearCache(of: key)
    #expect(try container.resolve(key, argument: 1) !== first)
  }

  @Test(arguments: [-1, Int.min])
  func aNegativeCacheLimitIsRefused(_ limit: Int) {
    let container = Container()
    let error = #expect(throws: DeferredError.self) {
      try container.register(Made.self, argument: Int.self, cachingUpTo: limit) { (n: Int) in
        Made("\(n)")
      }
    }
    #expect(error?.code == .outOfRange)
    #expect(error?.description.contains("\(limit)") == true)
  }

  @Test(arguments: [Int.min, -1, 0, 1, Int.max])
  func anyBuildLimitIsAtLeastOne(_ limit: Int) throws {
    let scheduler = ManualScheduler()
    let container = Container(
      scheduler: scheduler, clock: scheduler.clock, maxConcurrentBuilds: limit)
    #expect(container.maxConcurrentBuilds == max(1, limit))
    for index in 0..<4 {
      try container.register(Made.self, name: "\(index)", priority: .afterFirstFrame()) {
        Made("\(index)")
      }
    }
    try container.launch()
    try container.firstFrameDrawn()
    scheduler.runAll()
    #expect(container.isFullyReady)
    #expect(container.launchReport().builds.count == 4)
  }

  @Test(arguments: [Int.min, -1, 0, 1, Int.max])
  func anyHistoryWindowIsAtLeastOne(_ window: Int) {
    #expect(LaunchHistory(window: window).window == max(1, window))
  }

  @Test func anOddRegressionThresholdIsDefined() {
    for threshold in [
      RegressionThreshold(relative: -1, absolute: .zero, minimumLaunches: Int.min),
      RegressionThreshold(relative: .nan, absolute: .seconds(-1), minimumLaunches: 0),
      RegressionThreshold(relative: .infinity, absolute: .zero, minimumLaunches: Int.max),
    ] {
      #expect(threshold.minimumLaunches >= 1)
      _ = threshold.isRegression(.milliseconds(5), from: .milliseconds(1))
      _ = threshold.isRegression(.zero, from: .zero)
    }
  }

  @Test func aReportTakesOddRenderingArguments() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Made.self, priority: .critical) {
      scheduler.clock.advance(by: .milliseconds(3))
      return Made("critical")
    }
    try container.register(Made.self, name: "later", priority: .afterFirstFrame()) {
      Made("later")
    }
    try container.launch()
    try container.firstFrameDrawn()
    scheduler.runAll()
    for share in [-1, 0, .nan, .infinity, 2] as [Double] {
      _ = container.launchReport(criticalShareLimit: share).text()
    }
    let report = container.launchReport()
    for width in [Int.min, -1, 0, 1, 200, 1 << 20] {
      #expect(report.svg(width: width).hasPrefix("<svg"))
    }
    for cores in [Int.min, -1, 0, 1, Int.max] {
      _ = report.idealBackgroundBound(cores: cores)
    }
    for workers in [Int.min, -1, 0, 1, Int.max] {
      _ = report.predictDeferred(workers: workers)
    }
    _ = report.check(
      LaunchBudget(
        firstFrame: .seconds(-1), criticalPhase: .zero, criticalInitializer: .nanoseconds(1)))
  }

  @Test func aHistoryStorageReadWithAnOddLimitIsDefined() throws {
    let directory = try TemporaryDirectory()
    let storage = DirectoryHistoryStorage(directory: directory.path)
    try storage.replace(with: Array(repeating: 7, count: 100))
    for limit in [Int.min, -1, 0] {
      let bytes = try? storage.read(limit: limit)
      #expect(bytes == nil || bytes?.isEmpty == true || bytes?.count == 100)
    }
    #expect(try storage.read(limit: Int.max)?.count == 100)
  }

  @Test func twoThousandContributionsMakeOneCollection() throws {
    // Each contribution makes the collection's node anew with every member so far: quadratic
    // in the number of contributions, which is fine for the tens an app has.
    let container = Container()
    let numbers = CollectionKey<Int>()
    for index in 0..<2_000 { try container.contribute(to: numbers) { index } }
    #expect(try container.resolve(numbers) == Array(0..<2_000))
  }

  @Test func aChainTenThousandDeepBuildsOnASmallStack() throws {
    let container = Container()
    try container.register(box(0), factory: { Box(0) })
    for index in 1..<10_000 {
      try container.register(box(index), dependencies: box(index - 1)) { _ in Box(index) }
    }
    let built = Locked<Int?>(nil)
    let done = Signal()
    onThread(stackSize: 512 * 1024) {
      built.withLock { $0 = try? container.resolve(box(9_999)).id }
      done.fire()
    }
    done.wait()
    #expect(built.withLock { $0 } == 9_999)
  }

  // MARK: Durations

  @Test(arguments: [Duration.zero, .nanoseconds(1), .seconds(-1), .seconds(1 << 32)])
  func anIdleDelayIsDefined(_ delay: Duration) throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Made.self, priority: .idle(after: delay)) { Made("idle") }
    try container.launch()
    try container.firstFrameDrawn()
    container.appIsIdle()
    scheduler.runAll()
    #expect(try container.resolve(Made.self).label == "idle")
  }

  @Test(arguments: [Duration.zero, .nanoseconds(1), .seconds(1 << 32)])
  func aWaitLimitIsDefined(_ limit: Duration) throws {
    let container = Container(waitLimit: limit)
    try container.register(Made.self) { Made("made") }
    #expect(try container.resolve(Made.self).label == "made")
  }

  @Test(arguments: [Duration.seconds(Int64.max), .seconds(Int64.min)])
  func anExtremeDurationIsDefined(_ duration: Duration) throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock, waitLimit: duration)
    try container.register(Made.self, priority: .idle(after: duration)) { Made("idle") }
    try container.launch()
    try container.firstFrameDrawn()
    if duration > .zero { scheduler.clock.advance(by: duration) }
    container.appIsIdle()
    scheduler.runAll()
    #expect(try container.resolve(Made.self).label == "idle")
  }
}
