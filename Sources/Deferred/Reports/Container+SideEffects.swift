extension Container {
  /// Marks a service as built for what its build does, not for its value: a crash reporter
  /// that installs its handlers, a logging backend that takes over the process's output.
  ///
  /// Nothing resolves such a service before the first frame, and often nothing resolves it at
  /// all, so a launch report would advise deferring it (``Advice/Kind/deferCritical``) or
  /// building it on demand (``Advice/Kind/makeOnDemand``). Once marked, the report counts it as
  /// used by the app from the start of the launch: its build stays in the report, and no advice
  /// suggests moving it.
  ///
  /// ```swift
  /// try container.register(CrashReporter.self, priority: .critical) { CrashReporter.install() }
  /// try container.markBuiltForSideEffects(CrashReporter.self)
  /// try container.launch()  // builds CrashReporter; the report never advises deferring it
  /// ```
  ///
  /// Mark a service after registering it, before ``launch(_:)``. A registration that replaces
  /// it (`replacing: true`) is not marked.
  ///
  /// - Parameters:
  ///   - type: The service's type.
  ///   - name: The name it was registered with, if any.
  /// - Throws: ``DeferredError/Code/missingService`` if nothing is registered for it.
  public func markBuiltForSideEffects<Value: Sendable>(
    _ type: Value.Type, name: String? = nil
  ) throws(DeferredError) {
    try markBuiltForSideEffects(ServiceKey<Value>(name: name))
  }

  /// Marks the service of `key` as built for what its build does, not for its value
  /// (``markBuiltForSideEffects(_:name:)``).
  ///
  /// - Parameter key: The service's key.
  /// - Throws: ``DeferredError/Code/missingService`` if nothing is registered for it.
  public func markBuiltForSideEffects<Value: Sendable>(
    _ key: ServiceKey<Value>
  ) throws(DeferredError) {
    guard let node = lookup(key.erased) else { throw missing(key.erased, chain: []) }
    // As if the app had been handed the value: the report's first-frame uses and its unused
    // services both read this flag.
    node.wasResolved.set()
  }
}
