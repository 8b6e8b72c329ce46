import Testing

@testable import Deferred

/// The ready queues: a bit set by the first frame's rank order beside a heap, whose order must
/// be the plain heap's for the same pushes and pops; and, through the schedule, each build
/// handed over is the best ready one, over generated graphs.
@Suite struct RankedQueueTests {
  typealias Entry = LaunchSchedule.Entry

  /// Entries of distinct random ranks; a random part of them (the first frame's) numbered in
  /// rank order, the others (added later) with no position.
  static func entries(count: Int, node: AnyNode, _ random: inout SplitMix) -> (
    entries: [Entry], positioned: Int
  ) {
    let entries = (0..<count).map { order in
      let entry = Entry(node: node, priority: .afterFirstFrame(), order: order, released: true)
      // Distinct: the low bits are the order, as in the schedule's ranks.
      entry.rank = random.next() << 20 | UInt64(order)
      return entry
    }
    let positioned = entries.filter { _ in random.below(4) != 0 }.sorted { $0.rank < $1.rank }
    for (position, entry) in positioned.enumerated() { entry.position = position }
    return (entries, positioned.count)
  }

  @Test func theQueuesOrderIsTheHeapsForTheSamePushesAndPops() throws {
    let node = try LaunchScheduleTests.Graph().node("n")
    var random = SplitMix(seed: 0x0DDB_A11)
    for _ in 0..<300 {
      let count = 1 + random.below([3, 70, 300][random.below(3)])
      let (entries, positioned) = Self.entries(count: count, node: node, &random)
      var queue = RankedQueue()
      queue.reservePositions(positioned)
      var heap = RankedHeap()
      var waiting = entries
      var queued = 0
      var popped: [Entry] = []
      // Pushes and pops interleaved at random; a popped entry may come back (a pause).
      while !waiting.isEmpty || queued > 0 {
        if !waiting.isEmpty && (queued == 0 || random.below(3) != 0) {
          let entry = waiting.remove(at: random.below(waiting.count))
          queue.push(entry)
          heap.push(entry, rank: entry.rank)
          queued += 1
        } else {
          let (got, expected) = (queue.pop(), heap.pop())
          #expect(got === expected)
          queued -= 1
          if let got { popped.append(got) }
          if let got, random.below(10) == 0 { waiting.append(got) }
        }
      }
      #expect(queue.pop() == nil)
      #expect(Set(popped.map(ObjectIdentifier.init)).count == entries.count)
    }
  }

  @Test func anEmptiedQueueTakesEntriesAgain() throws {
    let node = try LaunchScheduleTests.Graph().node("n")
    var random = SplitMix(seed: 7)
    let (entries, positioned) = Self.entries(count: 200, node: node, &random)
    var queue = RankedQueue()
    queue.reservePositions(positioned)
    for entry in entries { queue.push(entry) }
    let first = (0..<200).compactMap { _ in queue.pop() }
    #expect(first.map(\.rank) == entries.map(\.rank).sorted())
    #expect(queue.pop() == nil)
    for entry in entries.reversed() { queue.push(entry) }
    #expect((0..<200).compactMap { _ in queue.pop() }.map(\.rank) == first.map(\.rank))
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
      let entries = nodes.compactMap { schedule.entry(for: $0) }
      var submitted = try schedule.firstFrameDrawn(nodes: nodes, now: 3).get().submit
      let entries2 = nodes.compactMap { schedule.entry(for: $0) }
      #expect(entries.isEmpty && !entries2.isEmpty)
      func check(_ taken: [Entry]) {
        let ready = entries2.filter { $0.status == .ready }
        for entry in taken {
          #expect(ready.allSatisfy { $0.rank > entry.rank })
        }
      }
      check(submitted)
      let idle = schedule.appIsIdle(now: 4).submit
      check(idle)
      submitted += idle
      var running: [Entry] = []
      var built: Set<ObjectIdentifier> = []
      var now: UInt64 = 5
      while !submitted.isEmpty || !running.isEmpty {
        now += 1
        if !submitted.isEmpty && (running.isEmpty || random.below(2) == 0) {
          let entry = submitted.remove(at: random.below(submitted.count))
          #expect(schedule.start(entry, now: now) != nil)
          running.append(entry)
          continue
        }
        let entry = running.remove(at: random.below(running.count))
        #expect(built.insert(ObjectIdentifier(entry)).inserted)
        let qos: BuildQoS? = random.below(2) == 0 ? entry.priority.qos : nil
        let work = schedule.finish(entry, .built, carryingOn: qos, now: now)
        check(work.submit + [work.next?.entry].compactMap { $0 })
        submitted += work.submit
        if let next = work.next { running.append(next.entry) }
      }
      #expect(built.count == entries2.count)
      #expect(schedule.isFullyReady)
    }
  }
}
