extension Resolver {
  /// Resolves the service registered for `type` and `name` if there is one, and returns `nil`
  /// if nothing is registered for it, as ``Container/resolveIfRegistered(_:name:)`` does.
  ///
  /// ```swift
  /// try container.register(CardsPresenter.self, scope: .transient, promising: .mainActor) {
  ///   resolver in
  ///   let presenter = CardsPresenter()
  ///   presenter.weather = try resolver.resolveIfRegistered(WeatherAPI.self)
  ///   return presenter
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The service's type; it may be left out where the compiler can infer it.
  ///   - name: The registration's name, if it has one.
  /// - Returns: The service, or `nil` if nothing is registered for it.
  /// - Throws: ``DeferredError`` if the service is registered and cannot be built.
  public func resolveIfRegistered<Value>(
    _ type: Value.Type = Value.self, name: String? = nil
  ) throws(DeferredError) -> Value? {
    let key = ServiceKey<Value>(name: name)
    guard container.lookup(key.erased) != nil else { return nil }
    return try resolve(key)
  }
}

extension Container {
  /// Returns the service registered for `type` and `name` if there is one, building it first
  /// if need be, and `nil` if nothing is registered for it: a dependency the app may leave out,
  /// as Swinject's `r.resolve(X.self)` without `!`.
  ///
  /// Only the absence of a registration gives `nil`: a registered service whose factory throws
  /// still throws. ``validate()`` does not report such a dependency missing.
  ///
  /// ```swift
  /// let weather = try container.resolveIfRegistered(WeatherAPI.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The service's type; it may be left out where the compiler can infer it.
  ///   - name: The registration's name, if it has one.
  /// - Returns: The service, or `nil` if nothing is registered for it.
  /// - Throws: ``DeferredError`` if the service is registered and cannot be built.
  public func resolveIfRegistered<Value>(
    _ type: Value.Type = Value.self, name: String? = nil
  ) throws(DeferredError) -> Value? {
    let key = ServiceKey<Value>(name: name)
    guard lookup(key.erased) != nil else { return nil }
    return try resolve(key)
  }
}
