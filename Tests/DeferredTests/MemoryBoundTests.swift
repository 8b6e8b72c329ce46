import DeferredReports
import Dispatch
import Testing

@testable import Deferred

/// What a long-running app keeps of its records stays bounded, however many resets and weak
/// rebuilds it goes through: the first builds and the latest, the others counted and said.
@Suite struct MemoryBoundTests {
  @Test func recordsStayBoundedOverManyResetsAndWeakRebuilds() throws {
    let container = Container()
    try container.register(Session.self, scope: .session) { Session(0) }
    try container.register(Numbered.self, scope: .weak) { Numbered(0) }
    let cycles = 100_000
    for _ in 0..<cycles {
      _ = try container.resolve(Session.self)
      container.reset(.session)
      // Let go at once: the next resolve builds it anew.
      _ = try container.resolve(Numbered.self)
    }
    let kept = container.recorder.kept
    let limit = KeptRecords<RawBuild>.firstLimit + KeptRecords<RawBuild>.latestLimit
    #expect(kept.builds == limit)
    #expect(kept.waits == 0)
    #expect(kept.dropped == 2 * cycles - limit)
    // The records keep the two registrations' nodes, nothing more.
    let nodes = Set(container.recorder.snapshot.builds.map { ObjectIdentifier($0.node) })
    #expect(nodes.count == 2)
    let report = container.launchReport()
    #expect(report.builds.count == limit)
    #expect(report.droppedRecords == 2 * cycles - limit)
    // The latest builds are kept: the last generation's session is the last record of it.
    #expect(report.builds.last { $0.service == "Session" }?.generation == cycles - 1)
    #expect(report.text().contains("\(2 * cycles - limit) builds and waits not kept"))
    let read = try LaunchReport(json: report.json())
    #expect(read.droppedRecords == report.droppedRecords)
    #expect(!RenderingTests.report.json().contains("droppedRecords"))
  }

  /// The ring keeps the latest records in order, and drops the oldest of them first.
  @Test func keptRecordsKeepTheFirstAndTheLatestInOrder() {
    var records = KeptRecords<Int>()
    let first = KeptRecords<Int>.firstLimit
    let latest = KeptRecords<Int>.latestLimit
    var dropped: [Int] = []
    for number in 0..<(first + latest + 10) {
      if let old = records.append(number, reserving: 16) { dropped.append(old) }
    }
    #expect(records.count == first + latest)
    #expect(records.dropped == 10)
    #expect(dropped == Array(first..<(first + 10)))
    #expect(records.all == Array(0..<first) + Array((first + 10)..<(first + latest + 10)))
  }

  /// An intern table with a limit holds at most that many values; a new value beyond them
  /// gets the overflow index, which stands for all of them. Thread names are kept so.
  @Test func anInternTableWithALimitStopsGrowing() {
    let table = InternTable(["other"], limit: 100, overflow: 0)
    for number in 0..<1_000 { _ = table.index(of: "thread \(number)") }
    #expect(table.count == 100)
    #expect(table.index(of: "thread 5") == 6)
    #expect(table.index(of: "thread 999") == 0)
    #expect(table.value(at: 0) == "other")
    #expect(ThreadNames.thread(at: ThreadNames.otherIndex) == ThreadInfo.otherThread)
  }
}

/// A thread that waits for another's build lends its priority only to a thread that still
/// runs: once the builder's thread has ended, a loan to it is refused.
@Suite struct PriorityDonationTests {
  @Test func aLoanIsRefusedOnceTheThreadHasEnded() throws {
    let recipient = Locked<PriorityDonation.Recipient?>(nil)
    let lentWhileRunning = Locked(false)
    // A thread of its own, joined: its build context's destructor has run once it returns.
    onThread(stackSize: 512 * 1024) {
      let own = BuildContext.current.recipient
      recipient.withLock { $0 = own }
      let loan = PriorityDonation.begin(to: own)
      lentWhileRunning.withLock { $0 = loan != nil }
      PriorityDonation.end(loan)
    }
    let ended = try #require(recipient.withLock { $0 })
    #expect(lentWhileRunning.withLock { $0 })
    #expect(!ended.isAlive)
    #expect(PriorityDonation.begin(to: ended) == nil)
    // The main actor's context and an async resolve's have no thread of their own.
    #expect(BuildContext.mainActor.recipient == nil)
    #expect(BuildContext(thread: .task).recipient == nil)
  }

  /// A waiter lends to the builder while it builds, whose thread then ends: the loan began
  /// while the thread ran, and ending it afterwards is safe.
  @Test func aWaiterLendsToABuilderThatEndsWhileItWaits() throws {
    let container = Container()
    let release = Signal()
    let building = Signal()
    try container.register(Storage.self) {
      building.fire()
      release.wait()
      return Storage()
    }
    let group = DispatchGroup()
    startThread(in: group) { _ = try? container.resolve(Storage.self) }
    building.wait()
    let waited = Signal()
    container.onWait { _ in waited.fire() }
    startThread(in: group) { _ = try? container.resolve(Storage.self) }
    waited.wait()
    release.fire()
    group.wait()
    #expect(try container.resolve(Storage.self).label == "disk")
  }
}
