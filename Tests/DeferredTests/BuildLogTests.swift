import Dispatch
import Testing

@testable import Deferred

/// The build log: every append that ended is read, in the order of the appends, from any
/// thread.
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
      log.append {
        RawBuild(
          node: node, priority: node.priority, trigger: .onDemand, requestedBy: nil,
          thread: thread, qos: nil, queued: nil, start: 0, end: 1, nested: 0, cpu: nil,
          outcome: .built, attempt: 1)
      }
    }
    #expect(log.all.map(\.thread) == [worker, main, worker])
    #expect(ThreadNames.index(of: worker) == BuildContext(thread: worker).threadIndex)
    #expect(ThreadNames.index(of: worker) != ThreadNames.index(of: main))
    #expect(BuildContext(thread: .task).threadIndex == ThreadNames.taskIndex)
    #expect(ThreadNames.thread(at: ThreadNames.taskIndex) == ThreadInfo.task)
    #expect(ThreadNames.thread(at: ThreadNames.noneIndex) == ThreadInfo.noThread)
  }

  /// Many appends, past the room the first one makes and many times over: every record is
  /// read, whole, in the order it was appended, and a report taken between appends does not
  /// change what the next one sees.
  @Test func recordsOfManyAppendsAreReadInOrder() throws {
    let container = Container()
    let node = try Self.node(in: container)
    let log = BuildLog()
    #expect(log.all.isEmpty)
    let count = 10 * BuildLog.initialCapacity + 7
    var earlier: [RawBuild] = []
    for number in 0..<count {
      log.append { Self.record(node, number: number) }
      if number == BuildLog.initialCapacity { earlier = log.all }
    }
    let all = log.all
    #expect(all.count == count)
    #expect(all.map(\.attempt) == Array(0..<count))
    #expect(all.allSatisfy { $0.node === node && $0.end == $0.start + 1 })
    #expect(earlier.map(\.attempt) == Array(0...BuildLog.initialCapacity))
  }

  /// Writers on several threads and a reader beside them: whatever the reader reads is whole,
  /// each writer's records in its order, and once the writers are done every record is read.
  @Test func appendsFromManyThreadsAreAllRead() throws {
    let container = Container()
    let node = try Self.node(in: container)
    let log = BuildLog()
    let (writers, each, reads) = (6, 600, 20)
    let group = DispatchGroup()
    let readCounts = Locked<[Int]>([])
    for writer in 0..<writers {
      startThread(in: group) {
        for number in 0..<each {
          log.append { Self.record(node, number: number, writer: writer) }
        }
      }
    }
    startThread(in: group) {
      var previous = 0
      for _ in 0..<reads {
        let all = log.all
        var last = [Int](repeating: -1, count: writers)
        for record in all {
          #expect(record.node === node && record.end == record.start + 1)
          #expect(record.attempt == last[record.generation] + 1)
          last[record.generation] = record.attempt
        }
        // A later read sees at least what an earlier one saw.
        #expect(all.count >= previous)
        previous = all.count
        readCounts.withLock { $0.append(all.count) }
      }
    }
    group.wait()
    #expect(readCounts.withLock { $0.count } == reads)
    let all = log.all
    #expect(all.count == writers * each)
    for writer in 0..<writers {
      #expect(all.filter { $0.generation == writer }.map(\.attempt) == Array(0..<each))
    }
  }
}
