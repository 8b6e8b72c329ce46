import Testing

@testable import Deferred

/// The ready queues: a bit set by the first frame's rank order beside a heap, whose order must
/// be the plain heap's for the same pushes and pops; and, through the schedule, each build
/// handed over is the best ready one, over generated graphs.
@Suite struct RankedQueueTests {
  /// A queued entry, as the queue sees it: its number, its rank, its position or -1.
  struct Item {
    let id: Int
    let rank: UInt64
    var position = -1
  }

  /// Items of distinct random ranks, numbered by their order; a random part of them (the
  /// first frame's) numbered in rank order, the others (added later) with no position.
  static func items(count: Int, _ random: inout SplitMix) -> (items: [Item], positioned: Int) {
    var items = (0..<count).map { id in
      // Distinct: the low bits are the order, as in the schedule's ranks.
      Item(id: id, rank: random.next() << 20 | UInt64(id))
    }
    let positioned = items.indices.filter { _ in random.below(4) != 0 }.sorted {
      items[$0].rank < items[$1].rank
    }
    for (position, index) in positioned.enumerated() { items[index].position = position }
    return (items, positioned.count)
  }

  @Test func theQueuesOrderIsTheHeapsForTheSamePushesAndPops() {
    var random = SplitMix(seed: 0x0DDB_A11)
    for _ in 0..<300 {
      let count = 1 + random.below([3, 70, 300][random.below(3)])
      let (items, positioned) = Self.items(count: count, &random)
      var queue = RankedQueue()
      queue.reservePositions(positioned)
      var heap = RankedHeap()
      var waiting = items.map(\.id)
      var queued = 0
      var popped: [Int] = []
      // Pushes and pops interleaved at random; a popped entry may come back (a pause).
      while !waiting.isEmpty || queued > 0 {
        if !waiting.isEmpty && (queued == 0 || random.below(3) != 0) {
          let item = items[waiting.remove(at: random.below(waiting.count))]
          queue.push(item.id, rank: item.rank, position: item.position)
          heap.push(item.id, rank: item.rank)
          queued += 1
        } else {
          let (got, expected) = (queue.pop(), heap.pop())
          #expect(got != nil)
          #expect(got == expected)
          queued -= 1
          if let got { popped.append(got) }
          if let got, random.below(10) == 0 { waiting.append(got) }
        }
      }
      #expect(queue.pop() == nil)
      #expect(Set(popped).count == items.count)
    }
  }

  @Test func anEmptiedQueueTakesEntriesAgain() {
    var random = SplitMix(seed: 7)
    let (items, positioned) = Self.items(count: 200, &random)
    var queue = RankedQueue()
    queue.reservePositions(positioned)
    for item in items { queue.push(item.id, rank: item.rank, position: item.position) }
    let first = (0..<200).compactMap { _ in queue.pop() }
    #expect(first.map { items[$0].rank } == items.map(\.rank).sorted())
    #expect(queue.pop() == nil)
    for item in items.reversed() { queue.push(item.id, rank: item.rank, position: item.position) }
    #expect((0..<200).compactMap { _ in queue.pop() } == first)
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
      var schedule = LaunchSchedule(width: 1 + random.below(3), history: history)
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
