import Deferred

extension LaunchReport {
  /// What the launch would look like deferred, with `advice` applied: a simple model, from
  /// this launch's own figures.
  ///
  /// - First frame: this launch's first frame, less the first-frame saving of each
  ///   `Advice.Kind.deferCritical` and `Advice.Kind.deferFirstFrameBuild` item: their
  ///   builds leave the way to the first frame, and nothing else changes.
  /// - Fully ready: the predicted first frame, plus the longest of: what this launch did
  ///   between its first frame and full readiness; the heaviest chain of dependencies among the
  ///   moved builds (they wait for one another); the moved builds' time shared among
  ///   `workers` threads. Services the advice makes `onDemand` are not built.
  ///
  /// - Parameters:
  ///   - advice: The advice to apply; this report's `advice` by default.
  ///   - workers: How many deferred builds run at once.
  /// - Returns: The prediction, or `nil` for a report without a first frame.
  public func predictDeferred(applying advice: [Advice]? = nil, workers: Int = 2)
    -> LaunchPrediction?
  {
    guard hasFiguresInRange else {
      return figuresInRange.predictDeferred(applying: advice, workers: workers)
    }
    guard let firstFrame = offset(of: .firstFrame) else { return nil }
    let ready = offset(of: .fullyReady) ?? firstFrame
    // The advice handed in may hold any durations: brought into range as the report's are.
    let given: [Advice] = (advice ?? self.advice).map { $0.figuresInRange }
    let applied = given.filter {
      ($0.kind == .deferCritical || $0.kind == .deferFirstFrameBuild) && $0.effect == .firstFrame
    }
    let saved = applied.reduce(Duration.zero) { $0 + $1.saving }
    let predictedFirstFrame = firstFrame > saved ? firstFrame - saved : .zero
    let moved = applied.filter { $0.suggestion != .onDemand }
    let cost = Dictionary(moved.map { ($0.service, $0.saving) }, uniquingKeysWith: +)
    let total = moved.reduce(Duration.zero) { $0 + $1.saving }
    let chain = heaviestChain(
      services: cost.keys.sorted(), dependencies: dependencies, cost: cost)
    let shared = total / max(1, workers)
    let tail = ready > firstFrame ? ready - firstFrame : .zero
    let after = max(tail, chain.total, shared)
    var explanation = [
      "first frame: \(milliseconds(firstFrame)) measured, less \(milliseconds(saved)) of builds"
        + " the advice moves off the way to it (\(applied.count) service"
        + "\(applied.count == 1 ? "" : "s")) = \(milliseconds(predictedFirstFrame))",
      "fully ready: the first frame, plus the longest of: this launch's"
        + " \(milliseconds(tail)) from first frame to fully ready;"
        + " the heaviest chain of moved builds, \(milliseconds(chain.total))"
        + (chain.path.count > 1 ? " (\(chain.path.joined(separator: " → ")))" : "")
        + "; \(milliseconds(total)) of moved builds over \(max(1, workers)) worker"
        + "\(workers == 1 ? "" : "s"), \(milliseconds(shared))"
        + " = \(milliseconds(predictedFirstFrame + after))",
    ]
    let onDemand = applied.filter { $0.suggestion == .onDemand }.map(\.service).sorted()
    if !onDemand.isEmpty {
      explanation.append("not built at all (onDemand): \(onDemand.joined(separator: ", "))")
    }
    return LaunchPrediction(
      firstFrame: predictedFirstFrame, fullyReady: predictedFirstFrame + after,
      moved: moved.map(\.service).sorted(), explanation: explanation)
  }
}

/// A launch predicted from another: what
/// ``Deferred/LaunchReport/predictDeferred(applying:workers:)`` expects of a deferred launch
/// once an eager launch's advice is applied.
public struct LaunchPrediction: Sendable, Hashable, Codable {
  /// When the first frame is expected, from the process start.
  public var firstFrame: Duration
  /// When the launch is expected to be fully ready, from the process start.
  public var fullyReady: Duration
  /// The services whose builds move after the first frame, and are built then.
  public var moved: [String]
  /// How the figures were worked out, a line each.
  public var explanation: [String]

  /// Creates a prediction.
  ///
  /// - Parameters:
  ///   - firstFrame: The expected first frame.
  ///   - fullyReady: The expected full readiness.
  ///   - moved: The services moved after the first frame.
  ///   - explanation: How the figures were worked out.
  public init(
    firstFrame: Duration, fullyReady: Duration, moved: [String], explanation: [String]
  ) {
    self.firstFrame = firstFrame
    self.fullyReady = fullyReady
    self.moved = moved
    self.explanation = explanation
  }
}
