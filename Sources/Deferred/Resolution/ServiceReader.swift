/// What a type that takes "the container" as its dependencies reads its services from: the
/// value an app's `Has*` protocols are implemented on, whose every read is an edge the
/// container knows.
///
/// Apps built on Factory or on a hand-written container often give a screen's model one value
/// that has each of its dependencies, and pass the container itself as that value:
///
/// ```swift
/// protocol HasExerciseService { var exerciseService: ExerciseServiceProtocol { get } }
/// final class FeedModel {
///   init(dependencies: HasExerciseService & HasStorageManager) { ... }
/// }
/// ```
///
/// Deferred cannot see through a container captured that way: the reads are not edges of its
/// graph, so ``Container/validate()``, the launch's build order, the report and its advice miss
/// them, and a test double registered in a child container never reaches the model. Register
/// such a model with the services it reads (`reading:`), and implement the `Has*` protocols on
/// `ServiceReader` instead of on the container:
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
/// The declared reads are the registration's dependencies, as a factory's parameters are:
/// `validate()` checks them without running anything, they are built before the model (at
/// launch, for a critical one), builds record the model as the service that needed them, and
/// a child container that overrides one of them makes the model anew with a reader of its
/// own, so the child's double is what the model reads. A model may keep its reader and read
/// later, lazily, as such models do.
///
/// Only what the registration declares can be read: a read of anything else is refused with
/// ``DeferredError/Code/undeclaredRead``, which names the service to add to `reading:`. So the
/// declaration is the whole list of the model's edges, and nothing it reads is hidden from
/// the container. The reader holds its container weakly: a model kept by the container does
/// not keep the container alive.
public struct ServiceReader: Sendable {
  /// The container of the registration: the one whose build made the reader (a child's copy
  /// reads from the child).
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
  /// A declared singleton was built before the reader's service, and is read without a lock; a
  /// transient one is made at each read, as the container makes it.
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
  /// stops the program with the error's message if it cannot: the form a `Has*` protocol's
  /// property, which cannot throw, reads with.
  ///
  /// A declared read cannot fail for a singleton once the reader exists (the service was
  /// built before it, and stays built); a transient or a weak one is made at the read, and
  /// its factory may fail. Use ``resolve(_:name:)`` where that must be handled.
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
