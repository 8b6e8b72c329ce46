import Deferred
import Swinject

/// The child process of the deep-chain check: registers the 10,000-link ``DeepChain`` on the
/// main thread, resolves its last link on a thread with a 512 KiB stack (Apple's default for
/// secondary threads), and prints `survived` if that returns.
enum DeepChainChild {
  static let stackSize = 512 * 1024

  static func run(_ contender: String) -> Int32 {
    let resolveLast: @Sendable () -> AnyObject?
    switch contender {
    case Contender.deferred:
      let container = Deferred.Container()
      must { try DeepChain.registerDeferred(into: container) }
      resolveLast = { must { try DeepChain.resolveLastDeferred(from: container) } }
    case Contender.swinject:
      let container = Swinject.Container()
      DeepChain.registerSwinject(into: container)
      let box = UncheckedSendable(value: container)
      resolveLast = { DeepChain.resolveLastSwinject(from: box.value) }
    case Contender.dependencies:
      resolveLast = { DeepChain.readLastDependency() }
    default:
      return fail("no contender named \(contender)")
    }
    let thread = NativeThread(stackSize: stackSize) {
      guard let last = resolveLast() else { fatalError("resolved nothing") }
      blackHole(last)
    }
    thread.join()
    print("survived")
    return 0
  }
}
