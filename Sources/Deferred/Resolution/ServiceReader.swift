/// What a type that takes "the container" as its dependencies reads its services from: the
/// value an app's `Has*` protocols are implemented on, whose every read is an edge the
/// container knows (<doc:ComingFromOtherContainers#Apps-that-read-the-container>).
///
/// ```swift
/// extension ServiceReader: HasExerciseService {
///   var exerciseService: ExerciseServiceProtocol { self[ExerciseServiceProtocol.self] }
/// }
/// try container.register(
///   FeedModel.self, scope: .transient,
///   reading: ExerciseServiceProtocol.self, StorageManagerType.self
/// ) { reader in FeedModel(dependencies: reader) }
/// ```
///
/// A model may keep its reader and read later; the reader holds its container weakly. A read
/// of anything not declared throws ``DeferredError/Code/undeclaredRead``.
public struct ServiceReader: Sendable {
  /// The container whose build made the reader (a child's copy reads from the child).
  private weak var container: Container?
  /// The service the reader was made for, which errors name.
  private let service: AnyServiceKey
  /// What it may read: the registration's declared reads.
  private let reads: DependencyList

  init(_ resolver: borrowing Resolver) {
    container = resolver.container
    service = resolver.dependent.key
    reads = resolver.dependent.dependencies ?? []
  }

  /// Reads the service registered for `type` and `name`, one the registration declares.
  ///
  /// - Parameters:
  ///   - type: The service's type; it may be left out where the compiler can infer it.
  ///   - name: The registration's name, if it has one.
  /// - Returns: The service.
  /// - Throws: ``DeferredError/Code/undeclaredRead`` if the registration does not declare it;
  ///   ``DeferredError/Code/shutDown`` once the container is shut down or gone; otherwise as
  ///   ``Container/resolve(_:name:)``.
  public func resolve<Value>(
    _ type: Value.Type = Value.self, name: String? = nil
  ) throws(DeferredError) -> Value {
    try resolve(ServiceKey<Value>(name: name))
  }

  /// Reads the service registered for `key`, one the registration declares.
  ///
  /// - Parameter key: The service's key.
  /// - Returns: The service.
  /// - Throws: As ``resolve(_:name:)``.
  public func resolve<Value>(_ key: ServiceKey<Value>) throws(DeferredError) -> Value {
    guard reads.contains(key.erased) else {
      throw DeferredError(
        .undeclaredRead, key: key.erased, chain: [service, key.erased],
        detail: "\(service) reads it through its ServiceReader, but its registration does not"
          + " declare it")
    }
    guard let container, !container.isShutDownRelaxed else {
      throw DeferredError(.shutDown, key: key.erased, chain: [service, key.erased])
    }
    return try container.resolve(key)
  }

  /// Reads the service registered for `type` and `name`, one the registration declares, and
  /// stops the program with the error's message if it cannot: for a `Has*` protocol's
  /// property, which cannot throw.
  ///
  /// A declared singleton was built before the reader and cannot fail; a transient or weak
  /// one is made at the read. Use ``resolve(_:name:)`` where a failure must be handled.
  ///
  /// - Parameters:
  ///   - type: The service's type.
  ///   - name: The registration's name, if it has one.
  public subscript<Value>(_ type: Value.Type, name name: String? = nil) -> Value {
    do {
      return try resolve(ServiceKey<Value>(name: name))
    } catch {
      fatalError("Deferred: \(error)")
    }
  }
}
