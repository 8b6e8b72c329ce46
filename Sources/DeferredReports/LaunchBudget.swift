import Deferred

/// Limits a launch must stay within: for an app's tests or CI to hold its launch to.
///
/// ```swift
/// let budget = LaunchBudget(
///   firstFrame: .milliseconds(400), criticalPhase: .milliseconds(150),
///   criticalInitializer: .milliseconds(50), mainThreadWaits: false)
/// let violations = container.launchReport().check(budget)
/// #expect(violations.isEmpty, "\(violations)")
/// ```
public struct LaunchBudget: Sendable, Hashable {
  /// The first frame must come within this time of the process start.
  public var firstFrame: Duration?
  /// The critical phase (launch began to critical ready) must take at most this long.
  public var criticalPhase: Duration?
  /// No single critical initializer may take longer than this itself.
  public var criticalInitializer: Duration?
  /// Whether the main thread may wait for builds on other threads.
  public var mainThreadWaits: Bool
  /// Whether the launch may regress: a service, the first frame or full readiness slower than
  /// the history's median by more than its threshold (the report's
  /// `Hazard.Kind.regression` and `Hazard.Kind.milestoneRegression` hazards; a container
  /// with a `LaunchHistory` names them). Set it to `false` in CI to fail on a regression.
  public var regressions: Bool

  /// Creates a budget; a limit left `nil` is not checked.
  ///
  /// - Parameters:
  ///   - firstFrame: The latest first frame, from the process start.
  ///   - criticalPhase: The longest critical phase.
  ///   - criticalInitializer: The longest critical initializer (its self time).
  ///   - mainThreadWaits: Whether the main thread may wait for other threads' builds.
  ///   - regressions: Whether the launch may be slower than its history's medians.
  public init(
    firstFrame: Duration? = nil, criticalPhase: Duration? = nil,
    criticalInitializer: Duration? = nil, mainThreadWaits: Bool = true, regressions: Bool = true
  ) {
    self.firstFrame = firstFrame
    self.criticalPhase = criticalPhase
    self.criticalInitializer = criticalInitializer
    self.mainThreadWaits = mainThreadWaits
    self.regressions = regressions
  }
}

/// A limit of a ``LaunchBudget`` that a launch broke, with the records that broke it.
public struct BudgetViolation: Sendable, Hashable, CustomStringConvertible {
  /// The limits of a ``LaunchBudget``.
  public enum Rule: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// ``LaunchBudget/firstFrame``.
    case firstFrame
    /// ``LaunchBudget/criticalPhase``.
    case criticalPhase
    /// ``LaunchBudget/criticalInitializer``.
    case criticalInitializer
    /// ``LaunchBudget/mainThreadWaits``.
    case mainThreadWaits
    /// ``LaunchBudget/regressions``.
    case regressions

    /// The rule's name: the name of the budget's property.
    public var description: String { rawValue }
  }

  /// Which limit.
  public var rule: Rule
  /// The limit (zero for ``Rule/mainThreadWaits`` and ``Rule/regressions``).
  public var limit: Duration
  /// What the launch took: for a limit whose milestone has not happened, `Duration`'s largest
  /// whole number of nanoseconds; for ``Rule/regressions``, how much slower than their
  /// medians the regressions were, together.
  public var actual: Duration
  /// The services that broke it, costliest first (for ``Rule/regressions``: the services, and
  /// `firstFrame` or `fullyReady`, as the hazards name them).
  public var services: [String]

  /// Creates a violation.
  ///
  /// - Parameters:
  ///   - rule: Which limit.
  ///   - limit: The limit.
  ///   - actual: What the launch took.
  ///   - services: The services that broke it, costliest first.
  public init(rule: Rule, limit: Duration, actual: Duration, services: [String] = []) {
    self.rule = rule
    self.limit = limit
    self.actual = actual
    self.services = services
  }

  /// What was broken, by how much, and by whom.
  public var description: String {
    let who = services.isEmpty ? "" : " (\(services.joined(separator: ", ")))"
    if rule == .mainThreadWaits {
      return "The main thread waited \(milliseconds(actual)) for other threads' builds\(who)."
    }
    if rule == .regressions {
      return "The launch regressed by \(milliseconds(actual)) in all\(who)."
    }
    return "\(rule): \(milliseconds(actual)) is over the budget of \(milliseconds(limit))\(who)."
  }
}

extension LaunchReport {
  /// Checks the launch against `budget`.
  ///
  /// - Parameter budget: The limits.
  /// - Returns: Every limit broken, with the records that broke it; empty when the launch is
  ///   within budget. A limit whose milestone has not happened yet counts as broken.
  public func check(_ budget: LaunchBudget) -> [BudgetViolation] {
    guard hasFiguresInRange else { return figuresInRange.check(budget) }
    var violations: [BudgetViolation] = []
    let critical = builds.filter { $0.trigger == .launch }.sorted {
      $0.selfDuration > $1.selfDuration
    }
    // What a limit whose milestone has not happened is over by: as much as there is.
    let never = Duration.nanoseconds(Int64.max)
    if let limit = budget.firstFrame {
      let actual = offset(of: .firstFrame) ?? never
      if actual > limit {
        violations.append(
          BudgetViolation(
            rule: .firstFrame, limit: limit, actual: actual,
            services: critical.prefix(3).map(\.service)))
      }
    }
    if let limit = budget.criticalPhase {
      let actual = criticalPhase ?? never
      if actual > limit {
        violations.append(
          BudgetViolation(
            rule: .criticalPhase, limit: limit, actual: actual,
            services: critical.prefix(3).map(\.service)))
      }
    }
    if let limit = budget.criticalInitializer {
      let over = critical.filter { $0.selfDuration > limit }
      if let worst = over.first {
        violations.append(
          BudgetViolation(
            rule: .criticalInitializer, limit: limit, actual: worst.selfDuration,
            services: over.map(\.service)))
      }
    }
    if !budget.mainThreadWaits {
      let waits = hazards.filter { $0.kind == .mainThreadWait }
      if !waits.isEmpty {
        violations.append(
          BudgetViolation(
            rule: .mainThreadWaits, limit: .zero,
            actual: waits.compactMap(\.duration).reduce(.zero, +), services: waits.map(\.service)))
      }
    }
    if !budget.regressions {
      let regressions = hazards.filter { $0.kind == .regression || $0.kind == .milestoneRegression }
        .sorted { ($0.slower, $1.service) > ($1.slower, $0.service) }
      if !regressions.isEmpty {
        violations.append(
          BudgetViolation(
            rule: .regressions, limit: .zero,
            actual: regressions.map(\.slower).reduce(.zero, +),
            services: regressions.map(\.service)))
      }
    }
    return violations
  }
}

extension Hazard {
  /// For a regression: how much slower than its baseline.
  fileprivate var slower: Duration {
    guard let duration, let baseline, duration > baseline else { return .zero }
    return duration - baseline
  }
}
