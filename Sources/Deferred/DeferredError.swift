/// The error a ``Container`` throws: what went wrong, for which service, and the chain of
/// services that needed it.
///
/// Match on ``code`` to tell kinds apart; print the error (``description``) to read what
/// happened and how to fix it:
///
/// ```swift
/// do {
///   let sync = try container.resolve(SyncService.self)
/// } catch {
///   // No registration for Network, needed by AppModel → SyncService → Network.
///   // Closest registered: NetworkClient. Register it with `container.register(Network.self) { ... }`.
///   print(error)
///   if error.code == .missingService { ... }
/// }
/// ```
public struct DeferredError: Error, Sendable, CustomStringConvertible {
  /// The kind of a ``DeferredError``.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }

    /// No registration exists for the service; ``DeferredError/suggestions`` lists the closest.
    public static let missingService = Code("missingService")
    /// The services depend on each other in a loop; ``DeferredError/cycle`` names it.
    public static let cycle = Code("cycle")
    /// The service's factory threw; ``DeferredError/underlying`` is what it threw.
    public static let factoryFailed = Code("factoryFailed")
    /// The service is registered already and the new registration did not say `replacing: true`.
    public static let duplicateRegistration = Code("duplicateRegistration")
    /// A registration came too late: the service, or the container, is in use already.
    public static let registrationTooLate = Code("registrationTooLate")
    /// Waiting for another thread's build of the service took longer than the container allows.
    public static let waitTimedOut = Code("waitTimedOut")

    /// The service has an `async` factory and is not built yet: resolve it with `await`.
    public static let asyncService = Code("asyncService")
    /// A launch step came out of order: ``Container/launch(_:)`` twice, or the first frame
    /// before the launch.
    public static let launchOrder = Code("launchOrder")
    /// A main-actor service was to be built by a call made off the main actor that cannot send
    /// the build there (``Container/launch(_:)``, which builds the critical services); or, as
    /// an error of ``Container/validate()``, a service built off the main actor takes one
    /// registered as used only there (``ConcurrencyPromise/mainActor``).
    public static let mainActorRequired = Code("mainActorRequired")
    /// The container was shut down: it builds and hands out nothing any more.
    public static let shutDown = Code("shutDown")
    /// A warning of ``Container/validate()`` (a ``ValidationIssue``, never thrown): a critical
    /// service depends on one that is not critical, so that one is built before the first
    /// frame too.
    public static let criticalNeedsDeferred = Code("criticalNeedsDeferred")
    /// A registration's scope does not suit its type: ``WeakScope/weak`` for a value that is not
    /// an object (a struct, an enum, a protocol not bound to classes).
    public static let invalidScope = Code("invalidScope")
    /// A warning of ``Container/validate()`` (a ``ValidationIssue``, never thrown): a service's
    /// scope defeats another's, such as a singleton that keeps a weak service alive for good,
    /// or a critical weak service, built before the first frame and let go at once.
    public static let scopeMismatch = Code("scopeMismatch")

    /// A forwarded service's type does not conform to the type it is forwarded as
    /// (``Container/forward(_:as:name:)``).
    public static let notConforming = Code("notConforming")

    /// A value given to the container is out of the range it accepts, such as a negative cache
    /// limit; the message names the service and the value.
    public static let outOfRange = Code("outOfRange")

    /// A ``ServiceReader`` was asked for a service its registration does not declare among
    /// its reads (`reading:`): an edge the container would not see, so it is refused.
    public static let undeclaredRead = Code("undeclaredRead")

    /// The code's name, such as `missingService`.
    public var description: String { name }
  }

  /// What it holds, in one immutable allocation: the error is one reference wide, and can grow
  /// without breaking users. Names are made from the keys when read.
  private final class Storage: Sendable {
    let code: Code
    let key: AnyServiceKey
    let chain: [AnyServiceKey]
    let cycle: [AnyServiceKey]
    let suggestions: [String]
    let holder: String?
    let underlying: (any Error)?
    let detail: String?

    init(
      code: Code, key: AnyServiceKey, chain: [AnyServiceKey], cycle: [AnyServiceKey],
      suggestions: [String], holder: String?, underlying: (any Error)?, detail: String?
    ) {
      self.code = code
      self.key = key
      self.chain = chain
      self.cycle = cycle
      self.suggestions = suggestions
      self.holder = holder
      self.underlying = underlying
      self.detail = detail
    }
  }

  private let storage: Storage

  /// What kind of error this is.
  public var code: Code { storage.code }
  /// The service the error is about, as its key prints (`Storage`, `Storage["cache"]`).
  public var service: String { storage.key.description }
  /// The services that led to this one, outermost first, ending with ``service``.
  public var chain: [String] { storage.chain.map(\.description) }
  /// For ``Code/cycle``: the loop, starting and ending with the same service.
  public var cycle: [String] { storage.cycle.map(\.description) }
  /// For ``Code/missingService``: registered services whose names are close to the missing one.
  public var suggestions: [String] { storage.suggestions }
  /// For ``Code/waitTimedOut``: the thread that was building the service.
  public var holder: String? { storage.holder }
  /// For ``Code/factoryFailed``: the error the factory threw.
  public var underlying: (any Error)? { storage.underlying }
  var detail: String? { storage.detail }
  var key: AnyServiceKey { storage.key }
  var chainKeys: [AnyServiceKey] { storage.chain }

  init(
    _ code: Code, key: AnyServiceKey, chain: [AnyServiceKey], cycle: [AnyServiceKey] = [],
    suggestions: [String] = [], holder: String? = nil, underlying: (any Error)? = nil,
    detail: String? = nil
  ) {
    storage = Storage(
      code: code, key: key, chain: chain, cycle: cycle, suggestions: suggestions, holder: holder,
      underlying: underlying, detail: detail)
  }

  /// The same error seen from a caller whose own chain is `prefix`: the part of the original
  /// chain from `key` on is kept, so it still ends with ``service``.
  func rechained(under prefix: [AnyServiceKey], at key: AnyServiceKey) -> DeferredError {
    let tail = chainKeys.firstIndex(of: key).map { Array(chainKeys[$0...]) } ?? [key]
    return DeferredError(
      code, key: storage.key, chain: prefix + tail, cycle: storage.cycle,
      suggestions: suggestions, holder: holder, underlying: underlying, detail: detail)
  }

  /// What happened, to whom, through which chain, and how to fix it.
  public var description: String {
    let chain = self.chain
    let path = chain.joined(separator: " → ")
    let neededBy = chain.count > 1 ? ", needed by \(path)" : ""
    switch code {
    case .missingService:
      let close =
        suggestions.isEmpty
        ? "" : " Closest registered: \(suggestions.joined(separator: ", "))."
      return "No registration for \(service)\(neededBy).\(close)"
        + " Register it with `container.register(\(typeName).self) { ... }`."
    case .cycle:
      return "Dependency cycle: \(cycle.joined(separator: " → "))\(cycleEntry)."
        + " Break the loop: let one of these services resolve the other lazily, when first used."
    case .factoryFailed:
      let what = underlying.map { String(describing: $0) } ?? "an error"
      return "The factory of \(service) threw \(what)\(neededBy)."
        + " Nothing was cached: the next resolve tries again."
    case .duplicateRegistration:
      return "\(service) is already registered in this container."
        + " Pass `replacing: true` to replace it on purpose, or register it in a child container."
    case .registrationTooLate:
      if let detail { return "\(service) cannot be registered now: \(detail)." }
      return "\(service) cannot be registered now: it, or the container, is in use already."
        + " Register services before resolving them; give a test its doubles in a new child"
        + " container before it resolves anything."
    case .waitTimedOut:
      return "Timed out waiting for \(service)\(neededBy): \(holder ?? "another thread")"
        + " is still building it. Look for a slow or blocked factory."
    case .asyncService:
      return "\(service) is built by an async factory\(neededBy), and is not built yet."
        + " Resolve it with `try await container.awaitService(\(typeName).self)`; a synchronous"
        + " service cannot depend on it."
    case .launchOrder where key == LaunchSchedule.launchKey:
      // About the container's launch itself, which no service names.
      return "\(detail ?? "launch steps out of order")."
    case .launchOrder:
      return "\(service): \(detail ?? "out of order")."
    case .shutDown:
      return "Cannot \(detail ?? "resolve") \(service)\(neededBy): the container was shut down."
    case .mainActorRequired:
      return "\(service) is a main-actor service: \(detail ?? "build it on the main actor")."
    case .notConforming:
      return "\(service) is forwarded from a service that does not conform to it"
        + " (\(detail ?? "a wrong type"))\(neededBy). Forward it with a conversion,"
        + " `container.forward(key, as: \(typeName).self) { $0 }`, which the compiler checks."
    case .outOfRange:
      return "\(service) \(detail ?? "was given a value out of range")."
    case .undeclaredRead:
      let reader = chain.first ?? "the service"
      let declaration =
        key.name.map { "ServiceKey<\(typeName)>(name: \"\($0)\")" }
        ?? "\(typeName).self"
      return "\(service) cannot be read: \(detail ?? "it is not declared")."
        + " Add \(declaration) to the `reading:` list of \(reader)'s registration, so that"
        + " validate(), the launch order and child containers see the edge."
    case .invalidScope:
      return "\(service) cannot be registered \(detail ?? "in that scope")."
    case .scopeMismatch:
      return "\(service)\(neededBy): \(detail ?? "its scope is defeated")."
    case .criticalNeedsDeferred:
      // A direct dependency needs no path; an indirect one says which way it is reached.
      let through = chain.count > 2 ? " (through \(path))" : ""
      return "\(chain.first ?? service) is critical but needs \(service)\(through), whose"
        + " priority is \(detail ?? "not critical"): \(service) is built before the first frame"
        + " too. Make it critical, or let \(chain.first ?? "the critical service") resolve it"
        + " later."
    default:
      return "\(code): \(service)\(neededBy)"
    }
  }

  private var typeName: String { String(describing: key.type) }

  /// For a cycle reached through services outside it, the way in (`, entered from AppModel →
  /// A`); nothing when the chain is the loop itself.
  private var cycleEntry: String {
    let chain = self.chain
    let cycle = self.cycle
    guard chain != cycle else { return "" }
    guard !cycle.isEmpty, chain.count > cycle.count, Array(chain.suffix(cycle.count)) == cycle
    else { return chain.count > 1 ? ", needed by \(chain.joined(separator: " → "))" : "" }
    let entry = chain.dropLast(cycle.count) + [cycle[0]]
    return ", entered from \(entry.joined(separator: " → "))"
  }
}

extension DeferredError {
  /// A cycle found on one context: `key` is needed again while `chain` (which holds it) is
  /// still being built.
  static func cycle(closing key: AnyServiceKey, chain: [AnyServiceKey]) -> DeferredError {
    let start = chain.firstIndex(of: key) ?? chain.startIndex
    return DeferredError(
      .cycle, key: key, chain: chain + [key], cycle: Array(chain[start...]) + [key])
  }
}
