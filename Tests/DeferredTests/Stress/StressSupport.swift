import Deferred
import Dispatch

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// A service of the stress test: which service it is, which registration made it, and the
/// boxes of the dependencies it was built from, in order.
final class StressBox: Sendable {
  let id: Int
  /// `base`, `replaced` (a `replacing: true` registration) or `child` (a child's override).
  let variant: String
  let dependencies: [StressBox]
  /// The round's ticket when its factory began (after its dependencies were built).
  let ticket: Int

  init(_ id: Int, variant: String, dependencies: [StressBox], ticket: Int) {
    self.id = id
    self.variant = variant
    self.dependencies = dependencies
    self.ticket = ticket
  }
}

/// The key of service `id`.
func stressKey(_ id: Int) -> ServiceKey<StressBox> { ServiceKey(name: "s\(id)") }

/// The service id in a key's description (`StressBox["s12"]`), if it is one of the test's.
func stressID(_ description: String) -> Int? {
  guard let open = description.firstRange(of: "[\"s"), let close = description.firstRange(of: "\"]")
  else { return nil }
  return Int(description[open.upperBound..<close.lowerBound])
}

/// What a faulty factory throws on its first attempt.
struct StressFault: Error, CustomStringConvertible {
  let id: Int
  var description: String { "injected fault of s\(id)" }
}

/// State behind a pthread mutex: ThreadSanitizer intercepts it (it does not see the contended
/// path of `Synchronization.Mutex` on Linux), and the test needs nothing of the library's.
final class StressLock<State>: @unchecked Sendable {
  private var state: State
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  init(_ state: State) {
    self.state = state
    precondition(pthread_mutex_init(mutex, nil) == 0)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    precondition(pthread_mutex_lock(mutex) == 0)
    defer { precondition(pthread_mutex_unlock(mutex) == 0) }
    return try body(&state)
  }
}

/// Busy-waits `microseconds`: a factory, or a worker, that takes a while on its thread.
func spin(microseconds: Int) {
  guard microseconds > 0 else { return }
  let clock = ContinuousClock()
  let end = clock.now.advanced(by: .microseconds(microseconds))
  while clock.now < end {}
}

/// A group of workers (threads and tasks) that says what each is doing, and is awaited with a
/// real-time deadline: a watchdog that names what every unfinished worker was doing.
final class StressWorkers: Sendable {
  private struct State {
    var doing: [(name: String, what: String)] = []
    var running = 0
    var waiter: CheckedContinuation<Bool, Never>?
  }
  private let state = StressLock(State())

  /// Runs `body` on a thread of its own; `note` tells the group what it is doing.
  func thread(_ name: String, _ body: @escaping @Sendable (_ note: (String) -> Void) -> Void) {
    let index = enter(name)
    startThread {
      body { self.note(index, $0) }
      self.leave(index)
    }
  }

  /// Runs `body` in a task of its own; `note` tells the group what it is doing.
  func task(
    _ name: String, _ body: @escaping @Sendable (_ note: @Sendable (String) -> Void) async -> Void
  ) {
    let index = enter(name)
    Task {
      await body { self.note(index, $0) }
      self.leave(index)
    }
  }

  private func enter(_ name: String) -> Int {
    state.withLock { state in
      state.running += 1
      state.doing.append((name, "starting"))
      return state.doing.count - 1
    }
  }

  private func note(_ index: Int, _ what: String) {
    state.withLock { $0.doing[index].what = what }
  }

  private func leave(_ index: Int) {
    let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      state.doing[index].what = "done"
      state.running -= 1
      guard state.running == 0 else { return nil }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: true)
  }

  /// Waits until every worker has finished (`true`), or until `limit` has passed (`false`).
  func wait(limit: Duration) async -> Bool {
    await withCheckedContinuation { continuation in
      let now = state.withLock { state -> Bool in
        if state.running == 0 { return true }
        state.waiter = continuation
        return false
      }
      if now {
        continuation.resume(returning: true)
        return
      }
      let deadline =
        DispatchTime.now() + .nanoseconds(Int(limit.components.seconds) * 1_000_000_000)
      DispatchQueue.global().asyncAfter(deadline: deadline) {
        let waiter = self.state.withLock { state -> CheckedContinuation<Bool, Never>? in
          defer { state.waiter = nil }
          return state.waiter
        }
        waiter?.resume(returning: false)
      }
    }
  }

  /// What each unfinished worker was doing last.
  var unfinished: String {
    state.withLock { state in
      state.doing.filter { $0.what != "done" }.map { "\($0.name): \($0.what)" }
        .joined(separator: "; ")
    }
  }
}
