import Dispatch
import Synchronization
import Testing

@testable import Deferred

/// The build log that takes no lock: every append that ended is read, in its lane's order,
/// across its chunks, from any thread.
@Suite struct BuildLogTests {
  /// A node to name in records: the registration of `Storage` in `container`.
  static func node(in container: Container) throws -> AnyNode {
    try container.register(Storage.self) { Storage() }
    return try #require(container.lookup(AnyServiceKey(Storage.self, name: nil)))
  }

  /// A record of `node` numbered `number` (its attempt) by `writer` (its generation).
  static func record(_ node: AnyNode, number: Int, writer: Int = 0) -> RawBuild {
    RawBuild(
      node: node, priority: node.priority, trigger: .onDemand, requestedBy: nil,
      thread: ThreadInfo(isMain: false, name: "writer \(writer)"), qos: nil, queued: nil,
      start: UInt64(number), end: UInt64(number) + 1, nested: 0, cpu: nil, outcome: .built,
      attempt: number, generation: writer)
  }

  /// A record keeps its thread as an index into the interned threads: read back, it is the
  /// thread recorded, name and main flag, and one thread has one index.
  @Test func recordsReadTheirThreadBack() throws {
    let container = Container()
    let node = try Self.node(in: container)
    let log = BuildLog()
    let worker = ThreadInfo(isMain: false, name: "interned worker")
    let main = ThreadInfo(isMain: true, name: "interned worker")
    for thread in [worker, main, worker] {
      log.append(
        RawBuild(
          node: node, priority: node.priority, trigger: .onDemand, requestedBy: nil,
          thread: thread, qos: nil, queued: nil, start: 0, end: 1, nested: 0, cpu: nil,
          outcome: .built, attempt: 1),
        lane: 0)
    }
    #expect(log.all.map(\.thread) == [worker, main, worker])
    #expect(ThreadNames.index(of: worker) == BuildContext(thread: worker).threadIndex)
    #expect(ThreadNames.index(of: worker) != ThreadNames.index(of: main))
    #expect(BuildContext(thread: .task).threadIndex == ThreadNames.taskIndex)
    #expect(ThreadNames.thread(at: ThreadNames.taskIndex) == ThreadInfo.task)
    #expect(ThreadNames.thread(at: ThreadNames.noneIndex) == ThreadInfo.noThread)
  }

  @Test func recordsAcrossChunksAreReadInOrder() throws {
    let container = Container()
    let node = try Self.node(in: container)
    let log = BuildLog()
    #expect(log.all.isEmpty)
    // 256 records a chunk: 1,000 records fill three and start a fourth.
    for number in 0..<1_000 { log.append(Self.record(node, number: number), lane: 11) }
    log.append(Self.record(node, number: 7, writer: 1), lane: 2)
    let all = log.all
    #expect(all.count == 1_001)
    // Lane 2 first, then lane 11 (= 3), oldest first.
    #expect(all.first?.generation == 1)
    #expect(all.dropFirst().map(\.attempt) == Array(0..<1_000))
    #expect(all.allSatisfy { $0.node === node && $0.end == $0.start + 1 })
  }

  /// Past a block of chunks (65,536 records in a lane), the next block is made and read.
  @Test func recordsPastABlockOfChunksAreRead() throws {
    let container = Container()
    let node = try Self.node(in: container)
    let log = BuildLog()
    let count = 65_536 + 300
    for number in 0..<count { log.append(Self.record(node, number: number), lane: 5) }
    let all = log.all
    #expect(all.count == count)
    #expect(all.map(\.attempt) == Array(0..<count))
  }

  @Test func appendsFromManyThreadsAreAllRead() throws {
    let container = Container()
    let node = try Self.node(in: container)
    let log = BuildLog()
    let (writers, each) = (6, 600)
    let group = DispatchGroup()
    let readsDone = Atomic<Int>(0)
    for writer in 0..<writers {
      startThread(in: group) {
        // Two writers to a lane: appends race for indices and chunks.
        for number in 0..<each {
          log.append(Self.record(node, number: number, writer: writer), lane: writer / 2)
        }
      }
    }
    // A reader meanwhile: whatever it reads is whole, each writer's records in its order.
    startThread(in: group) {
      for _ in 0..<20 {
        var last = [Int](repeating: -1, count: writers)
        for record in log.all {
          #expect(record.node === node && record.end == record.start + 1)
          #expect(record.attempt > last[record.generation])
          last[record.generation] = record.attempt
        }
        _ = readsDone.wrappingAdd(1, ordering: .relaxed)
      }
    }
    group.wait()
    #expect(readsDone.load(ordering: .relaxed) == 20)
    let all = log.all
    #expect(all.count == writers * each)
    for writer in 0..<writers {
      #expect(all.filter { $0.generation == writer }.map(\.attempt) == Array(0..<each))
    }
  }
}
