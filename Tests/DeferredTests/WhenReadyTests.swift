import Dispatch
import Synchronization
import Testing

@testable import Deferred

@Suite struct WhenReadyTests {
  @Test func workQueuedBeforeTheBuildIsDeliveredOnceInOrder() throws {
    let container = Container()
    let runs = Runs()
    try container.register(Storage.self) {
      runs.tick("Storage")
      return Storage()
    }
    let delivery = DispatchQueue(label: "delivery")
    let received = Locked<[[Int]]>(Array(repeating: [], count: 4))
    let done = DispatchGroup()
    let perThread = 2_500
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for index in 0..<perThread {
        done.enter()
        try! container.whenReady(Storage.self, on: delivery) { _ in
          received.withLock { $0[thread].append(index) }
          done.leave()
        }
      }
    }
    #expect(runs.total == 0)  // queuing work does not force the build
    _ = try container.resolve(Storage.self)
    done.wait()
    let all = received.withLock { $0 }
    for thread in 0..<4 { #expect(all[thread] == Array(0..<perThread)) }
    #expect(runs["Storage"] == 1)
  }

  @Test func workIsHeldThroughAFailedBuild() throws {
    let container = Container()
    let attempts = Atomic<Int>(0)
    try container.register(Network.self) {
      if attempts.add(1, ordering: .relaxed).newValue == 1 { throw Failure(message: "offline") }
      return Network()
    }
    let delivered = Signal()
    let count = Atomic<Int>(0)
    try container.whenReady(Network.self, on: .global()) { _ in
      count.add(1, ordering: .relaxed)
      delivered.fire()
    }
    #expect(throws: DeferredError.self) { try container.resolve(Network.self) }
    #expect(count.load(ordering: .relaxed) == 0)
    _ = try container.resolve(Network.self)
    delivered.wait()
    let delivered2 = Signal()
    try container.whenReady(Network.self, on: .global()) { _ in delivered2.fire() }
    delivered2.wait()
    #expect(count.load(ordering: .relaxed) == 1)
  }

  /// A service warmed up in the background and handed to queued work was used: the report
  /// names no unused warm-up for it, as it does for one nobody asked for.
  @Test func deliveredWorkCountsAsUse() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    try container.register(Storage.self, priority: .afterFirstFrame()) { Storage() }
    try container.register(Network.self, priority: .afterFirstFrame()) { Network() }
    let delivered = DispatchSemaphore(value: 0)
    try container.whenReady(Storage.self, on: DispatchQueue(label: "delivery")) { _ in
      delivered.signal()
    }
    try container.launch()
    try container.firstFrameDrawn()
    scheduler.runAll()
    delivered.wait()
    let unused = container.launchReport().hazards.filter { $0.kind == .unusedWarmUp }
    #expect(unused.map(\.service) == ["Network"])
  }

  @Test func missingServiceIsAnError() {
    let container = Container()
    let error = #expect(throws: DeferredError.self) {
      try container.whenReady(Storage.self, on: .global()) { _ in }
    }
    #expect(error?.code == .missingService)
  }
}
