/// What an app promises about a service whose type is not `Sendable`, so that Deferred may
/// keep it and hand it out: the promise Swinject and Factory assume without asking.
///
/// A container hands services to any thread, so its ordinary forms ask for `Sendable` values;
/// an app written before Swift 6 has many types that do not say they are, some it cannot
/// change (`UserDefaults`). Registering one with
/// ``Container/register(_:name:scope:priority:replacing:promising:_:)-(_,_,Scope,_,_,_,(Dependency)->Value)``
/// states once, at the composition root, why it is safe; every resolve of it then compiles.
///
/// ```swift
/// try container.register(UserDefaults.self, promising: .threadSafe) { .standard }
/// try container.register(
///   ProfileCoordinator.self, promising: .mainActor, ProfileCoordinator.init(store:))
/// ```
///
/// The compiler cannot check a promise: it is `@unchecked Sendable`, said where the service is
/// registered. See <doc:ServicesThatAreNotSendable>.
public enum ConcurrencyPromise: Sendable, Hashable, CustomStringConvertible {
  /// The type is safe to use from any thread by its own design: it guards its state with its
  /// own lock or queue, its state does not change after it is made, or its vendor documents it
  /// as thread-safe (`UserDefaults`, `URLSession`, `FileManager.default`).
  ///
  /// The service is built and scheduled like any other.
  case threadSafe

  /// The service is only used on the main actor, as a type marked `@MainActor` would be,
  /// though its declaration does not say so.
  ///
  /// Its factory runs on the main actor, as `registerMainActor`'s do, and
  /// ``Container/validate()`` reports, as an error, every service built off the main actor
  /// that takes it as a dependency. Resolve it only on the main actor.
  case mainActor

  /// How the promise is shown in errors and reports.
  public var description: String {
    switch self {
    case .threadSafe: "thread-safe"
    case .mainActor: "used only on the main actor"
    }
  }
}
