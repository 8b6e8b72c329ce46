import DeferredHistory
import Testing

@testable import Deferred

/// The ready queues: entries come out lowest rank first, whatever the order of pushes and pops;
/// and, through the schedule, each build handed over is the best ready one, over generated
/// graphs.
@Suite struct RankedQueueTests {
  /// Distinct random ranks, by entry number: the low bits are the number, as in the
  /// schedule's ranks.
  static func ranks(count: Int, _ random: inout SplitMix) -> [UInt64] {
    (0..<count).map { id in random.next() << 20 | UInt64(id) }
  }

  @Test func eachPopTakesTheLowestRankQueued() {
    var random = SplitMix(seed: 0x0DDB_A11)
    for _ in 0..<300 {
      let ranks = Self.ranks(count: 1 + random.below([3, 70, 300][random.below(3)]), &random)
      var queue = RankedQueue()
      var waiting = Array(ranks.indices)
      var queued: Set<Int> = []
      var popped: [Int] = []
      // Pushes and pops interleaved at random; a popped entry may come back (a pause).
      while !waiting.isEmpty || !queued.isEmpty {
        if !waiting.isEmpty && (queued.isEmpty || random.below(3) != 0) {
          let id = waiting.remove(at: random.below(waiting.count))
          queue.push(id, rank: ranks[id])
          queued.insert(id)
        } else {
          let expected = queued.min { ranks[$0] < ranks[$1] }
          let got = queue.pop()
          #expect(got == expected)
          guard let got else { break }
          queued.remove(got)
          popped.append(got)
          if random.below(10) == 0 { waiting.append(got) }
        }
      }
      #expect(queue.isEmpty)
      #expect(queue.pop() == nil)
      #expect(Set(popped).count == ranks.count)
    }
  }

  @Test func anEmptiedQueueTakesEntriesAgain() {
    var random = SplitMix(seed: 7)
    let ranks = Self.ranks(count: 200, &random)
    var queue = RankedQueue()
    queue.reserveCapacity(ranks.count)
    for (id, rank) in ranks.enumerated() { queue.push(id, rank: rank) }
    let first = (0..<200).compactMap { _ in queue.pop() }
    #expect(first.map { ranks[$0] } == ranks.sorted())
    #expect(queue.pop() == nil)
    for (id, rank) in ranks.enumerated().reversed() { queue.push(id, rank: rank) }
    #expect((0..<200).compactMap { _ in queue.pop() } == first)
    queue.push(0, rank: ranks[0])
    queue.removeAll()
    #expect(queue.pop() == nil)
  }

  /// Generated graphs scheduled to the end: every build handed over (to the scheduler or to
  /// the finishing thread) has a lower rank than every synchronous entry still ready, each is
  /// built once, and the app ends fully ready.
  @Test(arguments: [false, true])
  func eachBuildHandedOverIsTheBestReadyOne(withHistory: Bool) throws {
    var random = SplitMix(seed: withHistory ? 0x5EED : 0xFEED)
    for _ in 0..<12 {
      let graph = LaunchScheduleTests.Graph()
      let count = 20 + random.below(120)
      var nodes: [AnyNode] = []
      var costs: [String: Int] = [:]
      for index in 0..<count {
        let priority: Priority =
          switch random.below(10) {
          case 0...2: .afterFirstFrame(.userInitiated)
          case 3...5: .afterFirstFrame(.utility)
          case 6: .afterFirstFrame(.background)
          case 7: .idle(after: .seconds(5))
          default: .onDemand
          }
        let needs = index == 0 ? [] : (0..<random.below(3)).map { _ in "s\(random.below(index))" }
        nodes.append(try graph.node("s\(index)", priority, needs: needs))
        if random.below(3) != 0 { costs["s\(index)"] = 1 + random.below(50) }
      }
      let history = withHistory ? CriticalPathTests.history(costs) : nil
      var schedule = LaunchSchedule(width: 1 + random.below(3), pastLaunches: history)
      #expect(schedule.beginLaunch(flags: [], now: 1) == nil)
      #expect(schedule.endLaunch(succeeded: true, now: 2) == nil)
      let before = nodes.compactMap { schedule.entryID(for: $0) }
      var submitted = try schedule.firstFrameDrawn(nodes: nodes, now: 3).get().submit.map(\.id)
      let ids = nodes.compactMap { schedule.entryID(for: $0) }
      #expect(before.isEmpty && !ids.isEmpty)
      // Each number names its node's entry.
      for (node, id) in zip(nodes.filter { schedule.entryID(for: $0) != nil }, ids) {
        #expect(schedule.entry(id).node === node)
      }
      func check(_ taken: [Int]) {
        let ready = ids.map { schedule.entry($0) }.filter { $0.status == .ready }
        for id in taken {
          let rank = schedule.entry(id).rank
          #expect(ready.allSatisfy { $0.rank > rank })
        }
      }
      check(submitted)
      let idle = schedule.appIsIdle(now: 4).submit.map(\.id)
      check(idle)
      submitted += idle
      var running: [Int] = []
      var built: Set<Int> = []
      var now: UInt64 = 5
      while !submitted.isEmpty || !running.isEmpty {
        now += 1
        if !submitted.isEmpty && (running.isEmpty || random.below(2) == 0) {
          let id = submitted.remove(at: random.below(submitted.count))
          #expect(schedule.start(id, now: now)?.id == id)
          running.append(id)
          continue
        }
        let id = running.remove(at: random.below(running.count))
        #expect(built.insert(id).inserted)
        let qos: BuildQoS? = random.below(2) == 0 ? schedule.entry(id).priority.qos : nil
        let work = schedule.finish(id, .built, carryingOn: qos, now: now)
        check(work.submit.map(\.id) + [work.next?.id].compactMap { $0 })
        submitted += work.submit.map(\.id)
        if let next = work.next { running.append(next.id) }
      }
      #expect(built.count == ids.count)
      #expect(schedule.isFullyReady)
    }
  }
}
