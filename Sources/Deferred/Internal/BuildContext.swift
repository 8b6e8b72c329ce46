import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One line of building: a thread running factories, with the chain of services it is building,
/// outermost first.
///
/// Each thread has one, made the first time it builds anything. `chain` is touched only by the
/// context's own thread; `waitingOn` and `waitingChain` only under ``WaitGraph/lock``, which is
/// how other threads read them to find a cycle across threads.
final class BuildContext: @unchecked Sendable {
  let thread: ThreadInfo
  var chain: [AnyServiceKey] = []

  /// The service this context is blocked on, and its chain when it began to wait.
  var waitingOn: AnyNode?
  var waitingChain: [AnyServiceKey] = []

  init(thread: ThreadInfo) {
    self.thread = thread
  }

  /// The calling thread's context.
  static var current: BuildContext {
    if let raw = pthread_getspecific(contextKey) {
      return Unmanaged<BuildContext>.fromOpaque(raw).takeUnretainedValue()
    }
    let context = BuildContext(thread: .current())
    pthread_setspecific(contextKey, Unmanaged.passRetained(context).toOpaque())
    return context
  }
}

private let contextKey: pthread_key_t = {
  var key = pthread_key_t()
  #if canImport(Darwin)
    pthread_key_create(&key) { Unmanaged<BuildContext>.fromOpaque($0).release() }
  #else
    pthread_key_create(&key) { raw in
      if let raw { Unmanaged<BuildContext>.fromOpaque(raw).release() }
    }
  #endif
  return key
}()
