import ChainServices
import Deferred
import MallocInterposerSwift
import Swinject

/// A service of the memory check: an empty class, 16 bytes (the object header) an instance.
final class MemoryService: Sendable {
  init() {}
}

/// The child process of the `memoryPerService` check: registers `count` services (one type
/// under `count` names, each with a factory that captures nothing), then resolves each once,
/// and prints the bytes each step kept: `registered BYTES` and `built BYTES`.
///
/// Bytes kept are the bytes requested from `malloc` and its kin while the step ran, less those
/// freed meanwhile, as malloc-interposer counts them: the same on every run of the same code,
/// unlike the resident size (which moves by whole pages and with what the allocator keeps). It
/// is what the container asked for; the allocator rounds each block up and adds its own header.
/// The names and keys are made before counting starts; a container and one service of it are
/// made and resolved first, so that the library's own first use is not counted.
enum MemoryChild {
  /// Deferred with ``Recording/off``: what the default recording of every build keeps.
  static let deferredRecordingOff = "DeferredRecordingOff"
  static let contenders = [
    Contender.deferred, deferredRecordingOff, Contender.handWritten, Contender.swinject,
  ]

  static func run(_ contender: String, count: Int) -> Int32 {
    guard count > 0 else { return fail("the count must be positive") }
    guard AllocationCount.interposerIsCounting() else {
      return fail("malloc-interposer is not counting: no byte figures")
    }
    let names = (0..<count).map { "service\($0)" }
    let registered: Int
    let built: Int
    switch contender {
    case Contender.deferred, deferredRecordingOff:
      let warm = Deferred.Container()
      must { try warm.register(Warmup.self) { Warmup() } }
      blackHole(must { try warm.resolve(Warmup.self) })
      let keys = names.map { ServiceKey<MemoryService>(name: $0) }
      let container = Deferred.Container(
        recording: contender == deferredRecordingOff ? .off : .timings)
      registered = bytesKept {
        must { for key in keys { try container.register(key, factory: { MemoryService() }) } }
      }
      built = bytesKept {
        must { for key in keys { blackHole(try container.resolve(key)) } }
      }
      blackHole(container)
    case Contender.handWritten:
      let warm = HandWrittenContainer()
      warm.register(Warmup.self) { _ in Warmup() }
      blackHole(warm.resolve(Warmup.self))
      let container = HandWrittenContainer()
      registered = bytesKept {
        for name in names {
          container.register(MemoryService.self, name: name) { _ in MemoryService() }
        }
      }
      built = bytesKept {
        for name in names { blackHole(container.resolve(MemoryService.self, name: name)) }
      }
      blackHole(container)
    case Contender.swinject:
      let warm = Swinject.Container()
      warm.register(Warmup.self) { _ in Warmup() }.inObjectScope(.container)
      blackHole(warm.resolve(Warmup.self))
      let container = Swinject.Container()
      registered = bytesKept {
        for name in names {
          container.register(MemoryService.self, name: name) { _ in MemoryService() }
            .inObjectScope(.container)
        }
      }
      built = bytesKept {
        for name in names { blackHole(container.resolve(MemoryService.self, name: name)) }
      }
      blackHole(container)
    default:
      return fail("no contender named \(contender): \(contenders.joined(separator: ", "))")
    }
    print("registered \(registered)")
    print("built \(built)")
    return 0
  }

  /// The bytes `body` allocated and did not free.
  private static func bytesKept(_ body: () -> Void) -> Int {
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    body()
    MallocInterposerSwift.unhook()
    let statistics = MallocInterposerSwift.getStatistics()
    return statistics.mallocBytesCount - statistics.freeBytesCount
  }
}
