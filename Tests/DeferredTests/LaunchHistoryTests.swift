import Deferred
import DeferredHistory
import DeferredReports
import Dispatch
import Testing

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

@Suite struct LaunchHistoryTests {
  private func report(
    _ costs: [String: Int], firstFrame: Int, fullyReady: Int? = nil, cpu: Int? = nil,
    outcome: BuildRecord.Outcome = .built
  ) -> LaunchReport {
    var milestones = [
      Milestone(.processStart, at: .zero), Milestone(.firstFrame, at: .milliseconds(firstFrame)),
    ]
    if let fullyReady { milestones.append(Milestone(.fullyReady, at: .milliseconds(fullyReady))) }
    return LaunchReport(
      processStart: .clock, processStartPrecision: .zero, milestones: milestones,
      builds: costs.sorted { $0.key < $1.key }.map { service, milliseconds in
        BuildRecord(
          service: service, priority: .critical, trigger: .launch, thread: "main",
          isMainThread: true, start: .zero, duration: .milliseconds(milliseconds),
          selfDuration: .milliseconds(milliseconds), cpu: cpu.map { .microseconds($0) },
          outcome: outcome, attempt: 1)
      }, transients: [], hazards: [], dependencies: [:])
  }

  @Test func remembersTheMedianOfTheLastLaunchesOnly() {
    let history = LaunchHistory(window: 3)
    for (cost, frame) in [(100, 900), (1, 10), (2, 20), (3, 30)] {
      history.record(report(["Storage": cost], firstFrame: frame))
    }
    #expect(history.launchCount == 4)
    #expect(
      history.costs(of: "Storage").map(\.selfTime) == [
        .milliseconds(1), .milliseconds(2), .milliseconds(3),
      ])
    #expect(history.typicalSelfTime(of: "Storage") == .milliseconds(2))
    #expect(history.typicalOffset(of: .firstFrame) == .milliseconds(20))
    #expect(history.typicalSelfTime(of: "Network") == nil)
  }

  @Test func aChildSharesItsParentsHistory() {
    let history = LaunchHistory()
    let container = Container(history: history)
    #expect(container.makeChild().history === history)
    #expect(Container().history == nil)
  }

  // MARK: - On disk

  @Test func roundTripsThroughADirectory() throws {
    let directory = try TemporaryDirectory()
    let first = LaunchHistory(directory: directory.path)
    first.record(report(["Storage": 4, "Network": 2], firstFrame: 50, fullyReady: 90, cpu: 1_500))
    first.record(report(["Storage": 6, "Sync[\"é\"]": 1], firstFrame: 60, outcome: .failed))
    first.save()
    #expect(first.hazards.isEmpty)
    #expect(directory.exists(DirectoryHistoryStorage.fileName))

    let second = LaunchHistory(directory: directory.path)
    #expect(second.launchCount == 2)
    #expect(second.hazards.isEmpty)
    #expect(second.costs(of: "Storage") == first.costs(of: "Storage"))
    #expect(
      second.costs(of: "Storage") == [
        LaunchHistory.Cost(selfTime: .milliseconds(4), cpu: .microseconds(1_500)),
        LaunchHistory.Cost(selfTime: .milliseconds(6), outcome: .failed),
      ])
    #expect(second.costs(of: "Sync[\"é\"]").map(\.outcome) == [.failed])
    #expect(second.typicalSelfTime(of: "Network") == .milliseconds(2))
    #expect(second.typicalOffset(of: .firstFrame) == .milliseconds(50))
    #expect(second.typicalOffset(of: .fullyReady) == .milliseconds(90))
  }

  @Test func keepsAWindowOfLaunchesAndForgetsServicesNoLongerBuilt() throws {
    let storage = MemoryHistoryStorage()
    let history = LaunchHistory(storage: storage, window: 3)
    for cost in 1...5 { history.record(report(["Storage": cost], firstFrame: cost)) }
    history.record(report(["Network": 1], firstFrame: 1))
    history.save()
    let reread = LaunchHistory(storage: storage, window: 3)
    #expect(reread.costs(of: "Storage").map(\.selfTime) == [3, 4, 5].map { .milliseconds($0) })
    // A smaller window reads the newest launches only.
    let smaller = LaunchHistory(storage: storage, window: 2)
    #expect(smaller.costs(of: "Storage").map(\.selfTime) == [4, 5].map { .milliseconds($0) })
    #expect(smaller.typicalOffset(of: .firstFrame) == .milliseconds(1))
    // Three launches without a build of Storage: it ages out.
    reread.record(report(["Network": 1], firstFrame: 1))
    #expect(reread.costs(of: "Storage").count == 3)
    reread.record(report(["Network": 1], firstFrame: 1))
    #expect(reread.costs(of: "Storage").isEmpty)
    #expect(reread.costs(of: "Network").count == 3)
  }

  @Test func aMissingFileIsAFirstLaunchNotAHazard() throws {
    let directory = try TemporaryDirectory()
    let history = LaunchHistory(directory: directory.path)
    #expect(history.launchCount == 0)
    #expect(history.hazards.isEmpty)
  }

  enum BadFile: String, CaseIterable {
    case empty, truncated, garbage, huge, binaryVersion, olderVersion, newerVersion, corrupt
    case nestedTooDeep, wrongShape
  }

  @Test(arguments: BadFile.allCases)
  func aBadFileIsIgnoredWithAHazardAndReplacedByTheNextSave(_ bad: BadFile) throws {
    let directory = try TemporaryDirectory()
    let good = MemoryHistoryStorage()
    let source = LaunchHistory(storage: good)
    for cost in 1...3 { source.record(report(["Storage": cost, "Network": 9], firstFrame: 40)) }
    source.save()
    var bytes = try #require(good.bytes)
    let expected: String
    switch bad {
    case .empty:
      bytes = []
      expected = "the file is empty"
    case .truncated:
      bytes.removeLast(7)
      expected = "it is truncated"
    case .garbage:
      var generator = SplitMix(seed: 42)
      bytes = (0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) }
      expected = "it is not a launch history"
    case .huge:
      bytes = []
      expected = "more than the"
    case .binaryVersion:
      // The binary format of version 1.
      bytes = Array("DFLH".utf8) + [1, 17, 0, 0, 0] + [UInt8](repeating: 0, count: 8)
      expected = "it is format version 1, and this library reads version 2"
    case .olderVersion:
      bytes = Self.replacing("launch-history/2", with: "launch-history/0", in: bytes)
      expected = "it is format version 0"
    case .newerVersion:
      bytes = Self.replacing("launch-history/2", with: "launch-history/3", in: bytes)
      expected = "it is format version 3"
    case .corrupt:
      // Whole JSON, but a service's outcomes do not match its costs.
      bytes = Self.replacing("\"outcomes\":\"bbb\"", with: "\"outcomes\":\"bb\"", in: bytes)
      expected = "it is corrupt"
    case .nestedTooDeep:
      bytes =
        Array("{\"format\":\"deferred.launch-history/2\",\"x\":".utf8)
        + [UInt8](repeating: UInt8(ascii: "["), count: 10_000)
      expected = "nested deeper than 64 levels"
    case .wrongShape:
      bytes = Self.replacing("\"launches\":3", with: "\"launches\":\"3\"", in: bytes)
      expected = "it is corrupt"
    }
    let path = directory.path + "/" + DirectoryHistoryStorage.fileName
    try directory.write(bytes, to: DirectoryHistoryStorage.fileName)
    if bad == .huge {
      // Sparse: 64 MiB, read by no one.
      #expect(truncate(path, 64 << 20) == 0)
    }

    let history = LaunchHistory(directory: directory.path)
    #expect(history.launchCount == 0)
    #expect(history.costs(of: "Storage").isEmpty)
    let hazards = history.hazards
    #expect(hazards.map(\.kind) == [.historyUnreadable])
    #expect(hazards.first?.detail.contains(expected) == true, "\(hazards)")
    #expect(hazards.first?.detail.contains(path) == true)

    // A container's report names it; the launch goes on.
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock, history: history)
    try container.register(Storage.self, priority: .critical) { Storage() }
    try container.launch()
    try container.firstFrameDrawn()
    #expect(scheduler.runAll() == 1)
    #expect(container.launchReport().hazards.map(\.kind) == [.historyUnreadable])

    // The launch replaced the bad file with a good one.
    let reread = LaunchHistory(directory: directory.path)
    #expect(reread.hazards.isEmpty)
    #expect(reread.launchCount == 1)
    #expect(reread.costs(of: "Storage").count == 1)
  }

  /// `bytes` with the first `old` replaced by `new`; `old` must be there.
  static func replacing(_ old: String, with new: String, in bytes: [UInt8]) -> [UInt8] {
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains(old), "\(old) is not in \(text)")
    return Array(text.replacing(old, with: new, maxReplacements: 1).utf8)
  }

  enum NotAFile: String, CaseIterable {
    case fifo, directory, device
  }

  /// A history path that is a FIFO (which would block an open for reading until a writer
  /// came), a directory or a device is a hazard at once.
  @Test(arguments: NotAFile.allCases)
  func aPathThatIsNotARegularFileIsAHazardAtOnce(_ kind: NotAFile) throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/" + DirectoryHistoryStorage.fileName
    switch kind {
    case .fifo: #expect(mkfifo(path, 0o644) == 0)
    case .directory: #expect(mkdir(path, 0o755) == 0)
    case .device: #expect(symlink("/dev/zero", path) == 0)
    }
    let history = LaunchHistory(directory: directory.path)
    #expect(history.launchCount == 0)
    #expect(
      history.hazards.map(\.detail) == [
        "The launch history (\(path)) was ignored: it could not be read (it is not a regular"
          + " file)."
      ])
  }

  @Test func aDirectoryThatCannotBeWrittenIsAHazardAndKeepsTheLaunchInMemory() throws {
    let directory = try TemporaryDirectory()
    // A directory that is not there: not writable, even by root.
    let history = LaunchHistory(directory: directory.path + "/missing")
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock, history: history)
    try container.register(Storage.self, priority: .critical) { Storage() }
    try container.launch()
    try container.firstFrameDrawn()
    #expect(container.launchReport().hazards.isEmpty)
    #expect(scheduler.runAll() == 1)
    let hazards = container.launchReport().hazards
    #expect(hazards.map(\.kind) == [.historyUnwritable])
    #expect(hazards.first?.detail.contains("could not be saved") == true, "\(hazards)")
    #expect(history.launchCount == 1)
    #expect(history.costs(of: "Storage").count == 1)
    #expect(directory.entries.isEmpty)
  }

  @Test func aFailedSaveIsTriedAgainByTheNext() {
    let storage = MemoryHistoryStorage()
    storage.writeFailure = LaunchHistoryStorageError("disk full")
    let history = LaunchHistory(storage: storage)
    history.record(report(["Storage": 1], firstFrame: 10))
    history.save()
    #expect(
      history.hazards.map(\.detail) == [
        "The launch history (memory) could not be saved: disk full."
      ])
    storage.writeFailure = nil
    history.record(report(["Storage": 2], firstFrame: 10))
    history.save()
    #expect(storage.writes == 1)
    #expect(LaunchHistory(storage: storage).launchCount == 2)
  }

  @Test func twoWritersMergeAndAtWorstLoseOneLaunch() throws {
    let directory = try TemporaryDirectory()
    let seed = LaunchHistory(directory: directory.path)
    seed.record(report(["Storage": 1], firstFrame: 10))
    seed.save()

    // One after the other: each re-reads before it writes, and both launches are kept.
    let first = LaunchHistory(directory: directory.path)
    let second = LaunchHistory(directory: directory.path)
    #expect(first.launchCount == 1 && second.launchCount == 1)
    first.record(report(["Storage": 2], firstFrame: 20))
    second.record(report(["Storage": 3], firstFrame: 30))
    first.save()
    second.save()
    let merged = LaunchHistory(directory: directory.path)
    #expect(merged.launchCount == 3)
    #expect(merged.costs(of: "Storage").map(\.selfTime) == [1, 2, 3].map { .milliseconds($0) })
    #expect(second.launchCount == 3)

    // A storage without a lock of its own, interleaved: the third writer reads, then the
    // fourth saves whole, then the third writes. The fourth's launch is lost; the file is
    // whole.
    let fourth = LaunchHistory(directory: directory.path)
    fourth.record(report(["Storage": 5], firstFrame: 50))
    let interleaving = Interleaving(
      DirectoryHistoryStorage(directory: directory.path), beforeReplace: { fourth.save() })
    let third = LaunchHistory(storage: interleaving)
    third.record(report(["Storage": 4], firstFrame: 40))
    third.save()
    #expect(interleaving.replaced == 1)
    let after = LaunchHistory(directory: directory.path)
    #expect(after.hazards.isEmpty)
    #expect(after.launchCount == 4)
    #expect(after.costs(of: "Storage").map(\.selfTime) == [1, 2, 3, 4].map { .milliseconds($0) })
    #expect(
      directory.entries == [DirectoryHistoryStorage.fileName, DirectoryHistoryStorage.lockFileName])
  }

  /// Writers saving one history at once, each with its own storage object (so with its own
  /// open lock file, as another process would have): the lock around each save's read, merge
  /// and write keeps every launch.
  @Test func concurrentWritersLoseNoLaunch() throws {
    let directory = try TemporaryDirectory()
    let (path, writers, launches) = (directory.path, 4, 12)
    DispatchQueue.concurrentPerform(iterations: writers) { writer in
      let history = LaunchHistory(directory: path, window: writers * launches)
      for launch in 0..<launches {
        history.record(report(["Writer\(writer)": launch + 1], firstFrame: launch + 1))
        history.save()
      }
    }
    let merged = LaunchHistory(directory: directory.path, window: writers * launches)
    #expect(merged.hazards.isEmpty)
    #expect(merged.launchCount == writers * launches)
    for writer in 0..<writers {
      #expect(
        merged.costs(of: "Writer\(writer)").map(\.selfTime)
          == (1...launches).map { .milliseconds($0) })
    }
  }

  @Test func theContainerAppendsOnlyOnceFullyReadyInABackgroundJob() throws {
    let directory = try TemporaryDirectory()
    let history = LaunchHistory(directory: directory.path)
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let container = Container(scheduler: scheduler, clock: clock, history: history)
    try container.register(Storage.self, priority: .critical) {
      clock.advance(by: .milliseconds(3))
      return Storage()
    }
    try container.register(Network.self, priority: .afterFirstFrame()) {
      clock.advance(by: .milliseconds(7))
      return Network()
    }
    try container.launch()
    try container.firstFrameDrawn()
    #expect(scheduler.queued == ["build Network"])
    #expect(scheduler.runNext())
    #expect(container.isFullyReady)
    #expect(scheduler.queued == ["record launch history"])
    #expect(directory.entries.isEmpty)
    #expect(history.launchCount == 0)
    #expect(scheduler.runNext())
    #expect(scheduler.queued.isEmpty)
    #expect(
      directory.entries == [DirectoryHistoryStorage.fileName, DirectoryHistoryStorage.lockFileName])

    let reread = LaunchHistory(directory: directory.path)
    #expect(reread.launchCount == 1)
    #expect(reread.costs(of: "Storage").map(\.selfTime) == [.milliseconds(3)])
    #expect(reread.costs(of: "Network").map(\.selfTime) == [.milliseconds(7)])
    #expect(reread.typicalOffset(of: .fullyReady) == .milliseconds(10))
    // A child's launch is not recorded.
    let child = container.makeChild()
    try child.launch()
    try child.firstFrameDrawn()
    #expect(scheduler.queued.isEmpty)
  }

  // MARK: - Regressions

  private func threeLaunches(_ threshold: RegressionThreshold = RegressionThreshold())
    -> LaunchHistory
  {
    let history = LaunchHistory(regressionThreshold: threshold)
    for _ in 1...3 {
      history.record(report(["Storage": 10, "Fonts": 1], firstFrame: 100, fullyReady: 200))
    }
    return history
  }

  @Test func aRegressionIsSlowerByBothTheShareAndTheTime() {
    let history = threeLaunches()
    // +20%, +2 ms: neither exceeded.
    #expect(history.regressions(in: report(["Storage": 12], firstFrame: 100)).isEmpty)
    // +100% but +1 ms: the share only.
    #expect(history.regressions(in: report(["Fonts": 2], firstFrame: 100)).isEmpty)
    // +2.4 ms but +24%: the time only.
    let timeOnly = report(["Storage": 0], firstFrame: 100)
    var slightly = timeOnly
    slightly.builds[0].selfDuration = .microseconds(12_400)
    #expect(history.regressions(in: slightly).isEmpty)
    // Both.
    let both = history.regressions(in: report(["Storage": 13, "Fonts": 4], firstFrame: 100))
    #expect(both.map(\.kind) == [.regression, .regression])
    #expect(both.map(\.service) == ["Fonts", "Storage"])
    #expect(both[1].baseline == .milliseconds(10))
    #expect(both[1].duration == .milliseconds(13))
    #expect(
      both[1].detail
        == "Storage took 13.00 ms, against a median of 10.00 ms over the 3 launches before"
        + " (+3.00 ms, +30%).")
    // A failed build is no regression.
    #expect(
      history.regressions(in: report(["Storage": 50], firstFrame: 100, outcome: .failed)).isEmpty)
  }

  @Test func theFirstFrameAndFullReadinessRegressToo() {
    let history = threeLaunches()
    #expect(history.regressions(in: report([:], firstFrame: 124, fullyReady: 249)).isEmpty)
    let hazards = history.regressions(in: report([:], firstFrame: 130, fullyReady: 300))
    #expect(hazards.map(\.kind) == [.milestoneRegression, .milestoneRegression])
    #expect(hazards.map(\.service) == ["firstFrame", "fullyReady"])
    #expect(hazards.map(\.baseline) == [.milliseconds(100), .milliseconds(200)])
    #expect(hazards.map(\.duration) == [.milliseconds(130), .milliseconds(300)])
    #expect(
      hazards[0].detail.hasPrefix(
        "The first frame came at 130.00 ms, against a median of 100.00 ms"))
  }

  @Test func aThresholdIsConfigurableAndNeedsEnoughLaunches() {
    let strict = threeLaunches(RegressionThreshold(relative: 0.1, absolute: .microseconds(500)))
    #expect(
      strict.regressions(in: report(["Storage": 12], firstFrame: 100)).map(\.service) == ["Storage"]
    )
    let patient = threeLaunches(RegressionThreshold(minimumLaunches: 4))
    #expect(patient.regressions(in: report(["Storage": 50], firstFrame: 900)).isEmpty)
    #expect(RegressionThreshold(minimumLaunches: 0).minimumLaunches == 1)
  }

  @Test func theContainersReportComparesWithTheLaunchesBeforeIt() throws {
    let history = threeLaunches()
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let container = Container(scheduler: scheduler, clock: clock, history: history)
    try container.register(Storage.self, priority: .critical) {
      clock.advance(by: .milliseconds(15))
      return Storage()
    }
    try container.launch()
    try container.firstFrameDrawn()
    // Storage is the whole critical phase: no largeShare hazard beside the regression.
    let before = container.launchReport(criticalShareLimit: 1)
    #expect(before.hazards.map(\.kind) == [.regression])
    #expect(scheduler.runAll() == 1)
    #expect(history.launchCount == 4)
    // Recorded, and still compared with the three launches before.
    let after = container.launchReport(criticalShareLimit: 1)
    #expect(after.hazards == before.hazards)
    #expect(after.text().contains("! Storage took 15.00 ms, against a median of 10.00 ms"))
    #expect(after.json().contains("\"baselineNs\":10000000"))
    #expect(try LaunchReport(json: after.json()) == after)
    // A report made elsewhere compares with the history as it is now.
    #expect(history.regressions(in: after).isEmpty == false)
  }

  @Test func aBudgetCanForbidRegressions() {
    let history = threeLaunches()
    var launch = report(["Storage": 13, "Fonts": 9], firstFrame: 150)
    launch.hazards = history.regressions(in: launch)
    #expect(launch.check(LaunchBudget()).isEmpty)
    let violations = launch.check(LaunchBudget(regressions: false))
    #expect(violations.map(\.rule) == [.regressions])
    #expect(violations.first?.services == ["firstFrame", "Fonts", "Storage"])
    #expect(violations.first?.actual == .milliseconds(50 + 8 + 3))
    #expect(
      violations.first?.description
        == "The launch regressed by 61.00 ms in all (firstFrame, Fonts, Storage).")
    #expect(
      report(["Storage": 13], firstFrame: 100).check(LaunchBudget(regressions: false)).isEmpty)
  }

  @Test func hazardsWithoutABaselineDecodeAsBefore() throws {
    let json = """
      {"schema":"deferred.launch-report/1","processStart":{"source":"clock","precisionNs":0},
       "hazards":[{"kind":"promoted","service":"Fonts","detail":"d","durationNs":5}]}
      """
    let report = try LaunchReport(json: json)
    #expect(report.hazards.first?.baseline == nil)
    #expect(!report.json().contains("baselineNs"))
  }

  // MARK: - Size

  @Test func fiveHundredServicesOfTwentyLaunchesStaySmall() {
    let storage = MemoryHistoryStorage()
    let history = LaunchHistory(storage: storage)
    var generator = SplitMix(seed: 7)
    for _ in 1...20 {
      var launch = report([:], firstFrame: 300, fullyReady: 900)
      launch.builds = (0..<500).map { index in
        let time = Duration.microseconds(Int64.random(in: 20...8_000, using: &generator))
        return BuildRecord(
          service: "Service\(index)", priority: .critical, trigger: .launch, thread: "main",
          isMainThread: true, start: .zero, duration: time, selfDuration: time, cpu: time * 0.9,
          outcome: .built, attempt: 1)
      }
      history.record(launch)
    }
    history.save()
    let size = storage.bytes?.count ?? 0
    #expect(size > 150_000 && size < 220_000, "\(size) bytes")
    #expect(LaunchHistory(storage: storage).costs(of: "Service499").count == 20)
  }
}

/// A storage that runs `beforeReplace` once, between a save's read and its write: another
/// process saving at that moment.
private final class Interleaving: LaunchHistoryStorage {
  private let base: DirectoryHistoryStorage
  private let hook: Locked<(@Sendable () -> Void)?>
  private let count = Locked(0)

  init(_ base: DirectoryHistoryStorage, beforeReplace: @escaping @Sendable () -> Void) {
    self.base = base
    self.hook = Locked(beforeReplace)
  }

  var replaced: Int { count.withLock { $0 } }
  var description: String { base.description }

  func read(limit: Int) throws(LaunchHistoryStorageError) -> [UInt8]? {
    try base.read(limit: limit)
  }

  func replace(with bytes: [UInt8]) throws(LaunchHistoryStorageError) {
    let hook = self.hook.withLock { hook in
      defer { hook = nil }
      return hook
    }
    hook?()
    try base.replace(with: bytes)
    count.withLock { $0 += 1 }
  }
}

/// `write(2)`, which ``TemporaryDirectory/write(_:to:)`` hides.
private func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
  write(fd, bytes.baseAddress, bytes.count)
}

/// A directory made with `mkdtemp`, removed with what it holds when the test ends.
final class TemporaryDirectory {
  let path: String

  init() throws {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array((base + "/deferred-history-XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw Failure(message: "mkdtemp failed")
    }
    path = String(cString: made)
  }

  deinit {
    for entry in entries { unlink(path + "/" + entry) }
    rmdir(path)
  }

  /// The names in it, sorted.
  var entries: [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  func exists(_ name: String) -> Bool {
    access(path + "/" + name, F_OK) == 0
  }

  func write(_ bytes: [UInt8], to name: String) throws {
    let fd = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw Failure(message: "open failed") }
    defer { close(fd) }
    let written = bytes.withUnsafeBytes { writeAll(fd, $0) }
    guard written == bytes.count else { throw Failure(message: "write failed") }
  }
}
