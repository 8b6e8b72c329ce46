import Dispatch
import Synchronization
import Testing

@testable import Deferred

@Suite struct ConcurrencyTests {
  /// A graph of `count` boxes: box i needs box i-1 and box i/2 (declared, or resolved by the
  /// factory itself in the resolver form).
  static func graph(count: Int, declared: Bool, runs: Runs) throws -> Container {
    let container = Container()
    try container.register(box(0)) {
      runs.tick("box0")
      return Box(0)
    }
    for index in 1..<count {
      if declared {
        try container.register(box(index), dependencies: box(index - 1), box(index / 2)) {
          runs.tick("box\(index)")
          return Box(index, [$0, $1])
        }
      } else {
        try container.register(box(index)) { resolver in
          runs.tick("box\(index)")
          return Box(
            index, [try resolver.resolve(box(index - 1)), try resolver.resolve(box(index / 2))])
        }
      }
    }
    return container
  }

  @Test(arguments: [true, false])
  func manyThreadsBuildEachServiceExactlyOnce(declared: Bool) throws {
    for _ in 0..<20 {
      let runs = Runs()
      let count = 100
      let container = try Self.graph(count: count, declared: declared, runs: runs)
      let seen = Locked<[Int: ObjectIdentifier]>([:])
      let mismatches = Atomic<Int>(0)
      let failures = Atomic<Int>(0)
      DispatchQueue.concurrentPerform(iterations: 16) { worker in
        // Each worker walks the graph from a different end, so builds overlap and wait.
        for step in 0..<count {
          let index = worker.isMultiple(of: 2) ? count - 1 - step : (step * 37 + worker) % count
          guard let value = try? container.resolve(box(index)) else {
            failures.add(1, ordering: .relaxed)
            continue
          }
          let identity = ObjectIdentifier(value)
          seen.withLock { seen in
            if let known = seen[index], known != identity {
              mismatches.add(1, ordering: .relaxed)
            }
            seen[index] = identity
          }
        }
      }
      #expect(failures.load(ordering: .relaxed) == 0)
      #expect(mismatches.load(ordering: .relaxed) == 0)
      #expect(runs.total == count)
      for index in 0..<count { #expect(runs["box\(index)"] == 1) }
      // Every dependency a box holds is the shared instance.
      for index in 1..<count {
        let value = try container.resolve(box(index))
        #expect(value.dependencies[0] === (try container.resolve(box(index - 1))))
        #expect(value.dependencies[1] === (try container.resolve(box(index / 2))))
      }
    }
  }

  @Test func slowFactoryDoesNotBlockUnrelatedServices() throws {
    let container = Container()
    let started = Signal()
    let release = Signal()
    try container.register(Storage.self) {
      started.fire()
      release.wait()
      return Storage()
    }
    try container.register(Network.self) { Network() }
    let group = DispatchGroup()
    startThread(in: group) { _ = try? container.resolve(Storage.self) }
    started.wait()
    // Storage's factory is running on another thread; Network resolves regardless.
    #expect(try container.resolve(Network.self).online)
    release.fire()
    group.wait()
  }

  @Test func waitersGetTheBuildersInstanceAndItsFailure() throws {
    let container = Container()
    let started = Signal()
    let release = Signal()
    let runs = Runs()
    try container.register(Storage.self) {
      runs.tick("storage")
      started.fire()
      release.wait()
      throw Failure(message: "locked")
    }
    try container.register(Network.self) { (storage: Storage) in Network() }
    let waiting = Signal()
    container.onWait { _ in waiting.fire() }
    let group = DispatchGroup()
    let builderError = Locked<DeferredError?>(nil)
    startThread(in: group) {
      do throws(DeferredError) { _ = try container.resolve(Storage.self) } catch {
        builderError.withLock { $0 = error }
      }
    }
    started.wait()
    let waiterError = Locked<DeferredError?>(nil)
    startThread(in: group) {
      do throws(DeferredError) { _ = try container.resolve(Network.self) } catch {
        waiterError.withLock { $0 = error }
      }
    }
    waiting.wait()
    release.fire()
    group.wait()
    #expect(builderError.withLock { $0?.code } == .factoryFailed)
    let waiter = try #require(waiterError.withLock { $0 })
    #expect(waiter.code == .factoryFailed)
    #expect(waiter.service == "Storage")
    #expect(waiter.chain == ["Network", "Storage"])
    #expect(runs["storage"] == 1)
  }

  @Test func transientTalliesAreReadWhileMakingsAreRecordedOnOtherThreads() throws {
    // Three threads make a transient (the first makings racing to make its tally) while a
    // fourth takes reports: the counts it sees never fall nor pass what was made, and the
    // last report counts every making. (Under ThreadSanitizer: no race between the two.)
    let container = Container(scheduler: ManualScheduler(), clock: ManualClock())
    try container.register(Parser.self, scope: .transient) { Parser() }
    let seen = Locked<[Int]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      guard worker == 3 else {
        for _ in 0..<600 { _ = try? container.resolve(Parser.self) }
        return
      }
      for _ in 0..<100 {
        let record = container.launchReport().transients.first { $0.service == "Parser" }
        seen.withLock { $0.append(record?.count ?? 0) }
      }
    }
    let counts = seen.withLock { $0 }
    #expect(counts == counts.sorted())
    #expect(counts.allSatisfy { $0 <= 1_800 })
    let last = container.launchReport().transients.first { $0.service == "Parser" }
    #expect(last?.count == 1_800)
    #expect(last?.total == .zero && last?.max == .zero)
  }
}
