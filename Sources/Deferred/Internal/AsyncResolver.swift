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

/// Runs synchronous work (a build of a synchronous service) on a Dispatch queue and suspends
/// until it is done, so that async callers never block a thread of the cooperative pool.
func offThePool<Result: Sendable>(
  chain: [AnyServiceKey], _ work: @escaping @Sendable (BuildContext) throws(DeferredError) -> Result
) async throws(DeferredError) -> Result {
  let outcome: Swift.Result<Result, DeferredError> = await withCheckedContinuation {
    continuation in
    DispatchQueue.global(qos: .userInitiated).async {
      let context = BuildContext.current
      let saved = context.chain
      context.chain = chain
      defer { context.chain = saved }
      continuation.resume(returning: Swift.Result { () throws(DeferredError) in try work(context) })
    }
  }
  return try outcome.get()
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
