/// A problem ``Container/validate()`` found in the dependency graph: an error that makes a
/// build fail, or a warning about one that works but costs the launch.
///
/// ```swift
/// let issues = container.validate()
/// #expect(issues.filter { $0.severity == .error }.isEmpty, "\(issues)")
/// ```
public struct ValidationIssue: Sendable, Hashable, CustomStringConvertible {
  /// How bad an issue is.
  public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable, Codable,
    CustomStringConvertible
  {
    /// The graph works, at a cost: a service is built before the first frame that need not be.
    case warning
    /// A build will fail: a dependency is missing, or services need each other in a loop.
    case error

    /// Orders severities, the milder first.
    ///
    /// - Parameters:
    ///   - lhs: A severity.
    ///   - rhs: Another severity.
    /// - Returns: Whether `lhs` is milder than `rhs`.
    public static func < (lhs: Severity, rhs: Severity) -> Bool {
      lhs == .warning && rhs == .error
    }

    /// The severity's name: `warning` or `error`.
    public var description: String { rawValue }
  }

  /// How bad it is.
  public var severity: Severity
  /// What kind of problem: ``DeferredError/Code/missingService`` or ``DeferredError/Code/cycle``
  /// (errors, the codes a build would throw), or ``DeferredError/Code/criticalNeedsDeferred``
  /// (a warning).
  public var code: DeferredError.Code
  /// The service it is about: the missing one, the one that closes a cycle, or the one a
  /// critical service promotes.
  public var service: String
  /// The chain of services from the one that needs it to it.
  public var chain: [String]
  /// For a cycle: the loop, its first service again at its end.
  public var cycle: [String]
  /// What is wrong and how to fix it, in sentences.
  public var message: String
  /// The ``Module`` that registered the service the issue is about (the one that needs a
  /// missing service, the first of a cycle's chain), if a module did.
  public var module: String?

  /// Creates an issue.
  ///
  /// - Parameters:
  ///   - severity: How bad it is.
  ///   - code: What kind of problem.
  ///   - service: The service it is about.
  ///   - chain: The chain of services that leads to it.
  ///   - cycle: For a cycle, the loop.
  ///   - message: What is wrong and how to fix it.
  ///   - module: The module that registered the service it is about.
  public init(
    severity: Severity, code: DeferredError.Code, service: String, chain: [String] = [],
    cycle: [String] = [], message: String, module: String? = nil
  ) {
    self.module = module
    self.severity = severity
    self.code = code
    self.service = service
    self.chain = chain
    self.cycle = cycle
    self.message = message
  }

  /// An issue that says what `error` says, and which module registered `about`.
  init(
    _ severity: Severity, _ error: DeferredError, module: String? = nil,
    service about: AnyServiceKey? = nil
  ) {
    var message = error.description
    if let module, let about { message += " (\(about) is registered by module \(module).)" }
    self.init(
      severity: severity, code: error.code, service: error.service, chain: error.chain,
      cycle: error.cycle, message: message, module: module)
  }

  /// The severity, then the message: `warning: Theme is critical but needs Storage, …`.
  public var description: String { "\(severity): \(message)" }
}
