/// What an app promises about a service whose type is not `Sendable`, so that Deferred may
/// keep it and hand it out: the promise Swinject and Factory assume without asking.
///
/// ```swift
/// try container.register(UserDefaults.self, promising: .threadSafe) { .standard }
/// try container.register(
///   ProfileCoordinator.self, promising: .mainActor, ProfileCoordinator.init(store:))
/// ```
///
/// The compiler cannot check a promise: it is `@unchecked Sendable`, said where the service is
/// registered. See <doc:ServicesThatAreNotSendable#Which-promise>.
public enum ConcurrencyPromise: Sendable, Hashable, CustomStringConvertible {
  /// The type is safe to use from any thread by its own design (a lock or a queue, state that
  /// never changes, or its vendor's word); it is built and scheduled like any other.
  case threadSafe

  /// The service is only used on the main actor, though its declaration does not say so: its
  /// factory runs there, and ``Container/validate()`` reports every service built off the main
  /// actor that takes it. Resolve it only on the main actor.
  case mainActor

  /// How the promise is shown in errors and reports.
  public var description: String {
    switch self {
    case .threadSafe: "thread-safe"
    case .mainActor: "used only on the main actor"
    }
  }
}
