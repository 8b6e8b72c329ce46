import Dispatch

/// What an `async` factory's dependencies are resolved from: the build that is running, so a
/// cycle through async services is found and named too.
@usableFromInline
struct AsyncResolver: Sendable {
  let container: Container
  let context: BuildContext

  func resolve<Value: Sendable>(_ key: ServiceKey<Value>) async throws(DeferredError) -> Value {
    try await container.resolveAsync(key, context: context)
  }
}

/// Runs a synchronous build on a Dispatch queue of the calling task's priority and suspends
/// until it is done, so async callers never block a thread of the cooperative pool. `queue`
/// picks the global queue of a class (tests record it).
func offThePool<Result: Sendable>(
  chain: [AnyServiceKey],
  queue: (DispatchQoS.QoSClass) -> DispatchQueue = { DispatchQueue.global(qos: $0) },
  _ work: @escaping @Sendable (BuildContext) throws(DeferredError) -> Result
) async throws(DeferredError) -> Result {
  let target = queue(DispatchQoS.QoSClass(Task.currentPriority))
  let outcome: Swift.Result<Result, DeferredError> = await withCheckedContinuation {
    continuation in
    target.async {
      let context = BuildContext.current
      let saved = context.chain
      context.chain = chain
      defer { context.chain = saved }
      continuation.resume(returning: Swift.Result { () throws(DeferredError) in try work(context) })
    }
  }
  return try outcome.get()
}

extension DispatchQoS.QoSClass {
  /// The class a task of `priority` runs at: task priorities take the QoS classes' values, and
  /// one between two counts as the lower.
  init(_ priority: TaskPriority) {
    switch priority.rawValue {
    case 33...: self = .userInteractive
    case 25..<33: self = .userInitiated
    case 21..<25: self = .default
    case 17..<21: self = .utility
    default: self = .background
    }
  }
}

/// Runs synchronous work (a build of a main-actor service) on the main actor and suspends
/// until it is done, the main actor's build context standing in for `context` meanwhile.
func onMainActor<Result: Sendable>(
  for context: BuildContext,
  _ work: @escaping @Sendable (BuildContext) throws(DeferredError) -> Result
) async throws(DeferredError) -> Result {
  let outcome = await MainActor.run { () -> Swift.Result<Result, DeferredError> in
    Swift.Result { () throws(DeferredError) in
      try BuildContext.mainActor.standingIn(for: context, work)
    }
  }
  return try outcome.get()
}
