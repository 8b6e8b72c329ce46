import Dispatch
import Synchronization
import Testing

@testable import Deferred

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Counts how often each factory ran.
final class Runs: Sendable {
  private let counts = Locked<[String: Int]>([:])

  func tick(_ name: String) {
    counts.withLock { $0[name, default: 0] += 1 }
  }

  subscript(_ name: String) -> Int { counts.withLock { $0[name] ?? 0 } }

  var total: Int { counts.withLock { $0.values.reduce(0, +) } }
}

/// A one-shot signal between threads: no sleeping, no polling.
final class Signal: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)
  func fire() { semaphore.signal() }
  /// Waits for the signal; a minute without it fails the test instead of hanging it (a
  /// watchdog, not a wait for time to pass: the signal ends it at once).
  func wait() {
    if semaphore.wait(timeout: .now() + .seconds(60)) == .timedOut {
      Issue.record("no signal within a minute: something that should have happened did not")
    }
  }
}

final class Storage: Sendable {
  let label: String
  init(label: String = "disk") { self.label = label }
}

final class Network: Sendable {
  let online: Bool
  init(online: Bool = true) { self.online = online }
}

final class SyncService: Sendable {
  let storage: Storage
  let network: Network
  init(storage: Storage, network: Network) {
    self.storage = storage
    self.network = network
  }
}

final class AppModel: Sendable {
  let sync: SyncService
  init(sync: SyncService) { self.sync = sync }
}

/// A node of generated graphs: keeps what it was built from.
final class Box: Sendable {
  let id: Int
  let dependencies: [Box]
  init(_ id: Int, _ dependencies: [Box] = []) {
    self.id = id
    self.dependencies = dependencies
  }
}

struct Failure: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}

func box(_ id: Int) -> ServiceKey<Box> { ServiceKey(name: "box\(id)") }

/// SplitMix64: a small seeded generator, so that generated graphs are the same on every run.
struct SplitMix: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`, by the remainder (the same on every platform and every run).
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it.
func onThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
  let thread = newThread(stackSize: stackSize, body)
  #if canImport(Darwin)
    pthread_join(thread!, nil)
  #else
    pthread_join(thread, nil)
  #endif
}

/// Starts a detached thread of its own (not a Dispatch or cooperative-pool thread: it may block
/// as long as it likes).
func startThread(_ body: @escaping @Sendable () -> Void) {
  let thread = newThread(stackSize: nil, body)
  #if canImport(Darwin)
    pthread_detach(thread!)
  #else
    pthread_detach(thread)
  #endif
}

/// Starts a thread of its own inside `group` (it leaves the group when `body` returns): for
/// work that blocks, which on Dispatch's pool would hold a worker other tests need.
func startThread(in group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
  group.enter()
  startThread {
    body()
    group.leave()
  }
}

#if canImport(Darwin)
  typealias NewThread = pthread_t?
#else
  typealias NewThread = pthread_t
#endif

/// A new thread running `body`, with a stack of `stackSize` bytes or the default; the caller
/// joins or detaches it.
private func newThread(stackSize: Int?, _ body: @escaping @Sendable () -> Void) -> NewThread {
  final class Payload {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
  let payload = Unmanaged.passRetained(Payload(body)).toOpaque()
  #if canImport(Darwin)
    var thread: pthread_t?
  #else
    var thread = pthread_t()
  #endif
  let created = pthread_create(
    &thread, &attributes,
    { raw in
      #if canImport(Darwin)
        let payload = Unmanaged<Payload>.fromOpaque(raw).takeRetainedValue()
      #else
        let payload = Unmanaged<Payload>.fromOpaque(raw!).takeRetainedValue()
      #endif
      payload.body()
      return nil
    }, payload)
  precondition(created == 0)
  return thread
}
