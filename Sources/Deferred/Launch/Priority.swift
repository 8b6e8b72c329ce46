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
  @usableFromInline
  enum Kind: Hashable, Sendable {
    case critical
    case afterFirstFrame(BuildQoS)
    case idle(IdleDelay)
    case onDemand
    case when(Condition)
  }

  // A plain value, five bytes (Benchmarks/README.md, "Why the core is shaped as it is").
  @usableFromInline let kind: Kind

  @inlinable
  init(kind: Kind) { self.kind = kind }

  /// Built during launch, on the launching thread, before the first frame.
  @inlinable
  public static var critical: Priority { Priority(kind: .critical) }

  /// Never scheduled: built the first time it is resolved.
  @inlinable
  public static var onDemand: Priority { Priority(kind: .onDemand) }

  /// Built on a background queue once the app reports its first frame, after the services it
  /// depends on.
  ///
  /// - Parameter qos: The quality of service of the queue that builds it.
  public static func afterFirstFrame(_ qos: BuildQoS = .utility) -> Priority {
    Priority(kind: .afterFirstFrame(qos))
  }

  /// Built in the background a while after the first frame, or as soon as the app says it is
  /// idle, whichever comes first.
  ///
  /// A negative delay counts as zero. A delay longer than the clock reaches (about 146 years
  /// on Dispatch's) never passes: the service waits for ``Container/appIsIdle()``.
  ///
  /// - Parameter delay: How long after the first frame to wait.
  public static func idle(after delay: Duration = .seconds(10)) -> Priority {
    Priority(kind: .idle(IdleDelay(delay)))
  }

  /// A priority that depends on the launch: `then` when the context passed to
  /// ``Container/launch(_:)`` has `flag`, `otherwise` when not.
  ///
  /// ```swift
  /// // The restored screen's data is needed for the first frame only when restoring state.
  /// try container.register(
  ///   Document.self, priority: .when(.restoringState, .critical, otherwise: .afterFirstFrame())
  /// ) { try Document.load() }
  /// try container.launch([.restoringState])
  /// ```
  ///
  /// - Parameters:
  ///   - flag: The flag to look for in the launch context.
  ///   - then: The priority when the flag is set.
  ///   - otherwise: The priority when it is not.
  public static func when(_ flag: LaunchFlag, _ then: Priority, otherwise: Priority) -> Priority {
    Priority(kind: .when(Condition(flag: flag, then: then, otherwise: otherwise)))
  }

  /// The priority that holds in a launch with `context`.
  ///
  /// - Parameter context: The flags the launch was given.
  /// - Returns: A priority that depends on no flag.
  public func resolved(in context: Set<LaunchFlag>) -> Priority {
    guard case .when(let condition) = kind else { return self }
    let branches = condition.branches
    return (context.contains(branches.flag) ? branches.then : branches.otherwise)
      .resolved(in: context)
  }

  /// Whether the service is built during launch, before the first frame (for a priority that
  /// depends on the launch, whether either branch is critical).
  public var isCritical: Bool {
    switch kind {
    case .critical: true
    case .when(let condition):
      condition.branches.then.isCritical || condition.branches.otherwise.isCritical
    default: false
    }
  }

  /// Where the priority falls in the launch (for a priority that depends on the launch,
  /// ``LaunchStage/onDemand``: resolve it with ``resolved(in:)`` first).
  public var stage: LaunchStage {
    switch kind {
    case .critical: .critical
    case .afterFirstFrame: .afterFirstFrame
    case .idle: .idle
    case .onDemand, .when: .onDemand
    }
  }

  /// For an idle priority: how long after the first frame it waits.
  var idleDelay: Duration? {
    if case .idle(let delay) = kind { delay.duration } else { nil }
  }

  /// The quality of service of the queue that builds it in the background.
  var qos: BuildQoS {
    switch kind {
    case .afterFirstFrame(let qos): qos
    case .critical: .userInitiated
    default: .utility
    }
  }

  /// The priority's name, as shown in reports: `critical`, `afterFirstFrame(utility)`,
  /// `idle(10.0 seconds)` or `onDemand`.
  public var description: String {
    switch kind {
    case .critical: "critical"
    case .afterFirstFrame(let qos): "afterFirstFrame(\(qos))"
    case .idle(let delay): "idle(\(delay.duration))"
    case .onDemand: "onDemand"
    case .when(let condition):
      "when(\(condition.branches.flag), \(condition.branches.then), otherwise: \(condition.branches.otherwise))"
    }
  }
}

extension Priority {
  /// Reads a priority as ``description`` writes it, as in a report; `idleDelay`, if given, is
  /// an idle priority's exact delay (the name rounds it). `nil` for a priority that depends on
  /// the launch, or for a name that is none.
  init?(reportName name: String, idleDelay: Duration? = nil) {
    func argument(of function: String) -> Substring? {
      guard name.hasPrefix(function + "("), name.hasSuffix(")") else { return nil }
      return name.dropFirst(function.count + 1).dropLast()
    }
    switch name {
    case "critical": self = .critical
    case "onDemand": self = .onDemand
    default:
      if let qos = argument(of: "afterFirstFrame").flatMap({
        BuildQoS(rawValue: String($0))
      }) {
        self = .afterFirstFrame(qos)
      } else if let delay = argument(of: "idle") {
        // `Duration`'s description: "10.0 seconds".
        guard
          let exact = idleDelay
            ?? delay.split(separator: " ").first.flatMap({ Double($0) }).flatMap(
              Duration.init(saturatingSeconds:))
        else { return nil }
        self = .idle(after: exact)
      } else {
        return nil
      }
    }
  }
}

/// The flag and branches of a `when` priority, interned so that the priority stays a plain
/// value: equal branches have one index.
@usableFromInline
struct Condition: Hashable, Sendable {
  struct Branches: Hashable, Sendable {
    let flag: LaunchFlag
    let then: Priority
    let otherwise: Priority
  }

  private static let table = InternTable<Branches>()

  let index: UInt32

  init(flag: LaunchFlag, then: Priority, otherwise: Priority) {
    index = Self.table.index(of: Branches(flag: flag, then: then, otherwise: otherwise))
  }

  var branches: Branches { Self.table.value(at: index) }
}

/// An idle priority's delay, interned like ``Condition``: equal delays have one index.
@usableFromInline
struct IdleDelay: Hashable, Sendable {
  private static let table = InternTable<Duration>()

  let index: UInt32

  init(_ duration: Duration) {
    index = Self.table.index(of: duration)
  }

  var duration: Duration { Self.table.value(at: index) }
}

/// A fact about one launch that priorities may depend on, such as ``restoringState``.
///
/// Define your own as static members:
///
/// ```swift
/// extension LaunchFlag {
///   static let openedFromNotification = LaunchFlag("openedFromNotification")
/// }
/// ```
public struct LaunchFlag: Hashable, Sendable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// The flag's name.
  public let name: String

  /// Creates a flag.
  ///
  /// - Parameter name: The flag's name.
  public init(_ name: String) { self.name = name }

  /// Creates a flag from a string literal.
  ///
  /// - Parameter value: The flag's name.
  public init(stringLiteral value: String) { self.name = value }

  /// The app is restoring a screen the user left, whose data the first frame then needs.
  public static let restoringState = LaunchFlag("restoringState")

  /// The flag's name.
  public var description: String { name }
}
