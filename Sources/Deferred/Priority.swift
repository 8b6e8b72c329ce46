/// When a singleton is built during an app's launch.
///
/// Registering never builds anything. The priority says when the container builds the service
/// if nobody resolves it first:
///
/// ```swift
/// try container.register(Theme.self, priority: .critical) { Theme.load() }
/// try container.register(Sync.self, priority: .afterFirstFrame(.utility), Sync.init(storage:))
/// try container.register(Config.self, priority: .idle(after: .seconds(10))) { Config() }
/// try container.register(Conversions.self) { try Conversions.parse() }  // on demand
/// ```
///
/// Whatever the priority, resolving a service that is not built yet builds it at once on the
/// caller.
public struct Priority: Sendable, Hashable, CustomStringConvertible {
  enum Kind: Hashable {
    case critical
    case afterFirstFrame(QualityOfService)
    case idle(Duration)
    case onDemand
  }

  let kind: Kind

  /// Built during launch, on the launching thread, before the first frame.
  public static let critical = Priority(kind: .critical)

  /// Never scheduled: built the first time it is resolved.
  public static let onDemand = Priority(kind: .onDemand)

  /// Built on a background queue once the app reports its first frame, after the services it
  /// depends on.
  ///
  /// - Parameter qos: The quality of service of the queue that builds it.
  public static func afterFirstFrame(_ qos: QualityOfService = .utility) -> Priority {
    Priority(kind: .afterFirstFrame(qos))
  }

  /// Built in the background a while after the first frame, or as soon as the app says it is
  /// idle, whichever comes first.
  ///
  /// - Parameter delay: How long after the first frame to wait.
  public static func idle(after delay: Duration = .seconds(10)) -> Priority {
    Priority(kind: .idle(delay))
  }

  /// Whether the service is built during launch, before the first frame.
  public var isCritical: Bool { kind == .critical }

  /// The priority's name, as shown in reports: `critical`, `afterFirstFrame(utility)`,
  /// `idle(10.0 seconds)` or `onDemand`.
  public var description: String {
    switch kind {
    case .critical: "critical"
    case .afterFirstFrame(let qos): "afterFirstFrame(\(qos))"
    case .idle(let delay): "idle(\(delay))"
    case .onDemand: "onDemand"
    }
  }
}

/// The quality of service of the background queues that build deferred services.
public enum QualityOfService: Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Work the user is waiting for.
  case userInitiated
  /// Work the user is not waiting for but will see the result of.
  case utility
  /// Maintenance work the user does not see.
  case background

  /// The name of the class, as shown in reports.
  public var description: String {
    switch self {
    case .userInitiated: "userInitiated"
    case .utility: "utility"
    case .background: "background"
    }
  }
}
