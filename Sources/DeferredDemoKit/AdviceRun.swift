import Deferred
import DeferredReports

/// `advise`: the eager app's launch, the advice its report gives, the deferred launch that
/// advice predicts, and the deferred app's launch measured against the prediction.
public struct AdviceRun: Sendable {
  /// Runs one launch of `mode` and returns its report, on the main actor (where an eager
  /// launch builds its main-actor services).
  public typealias Launcher =
    @MainActor @Sendable (_ mode: LaunchMode) async throws -> LaunchReport

  /// The eager launch's report.
  public let eager: LaunchReport
  /// The advice from it.
  public let advice: [Advice]
  /// The deferred launch the advice predicts.
  public let prediction: LaunchPrediction
  /// The deferred launch's report.
  public let deferred: LaunchReport
  /// How many deferred builds the prediction let run at once.
  public let workers: Int

  /// Launches the eager app, works out its advice and the deferred launch it predicts, then
  /// launches the deferred app.
  ///
  /// - Parameters:
  ///   - workers: How many deferred builds run at once in the deferred app.
  ///   - launch: Runs one launch and returns its report.
  /// - Returns: The run.
  /// - Throws: ``DemoError`` if the eager report has no first frame; what `launch` throws.
  @MainActor
  public static func measure(workers: Int, launch: Launcher) async throws -> AdviceRun {
    let eager = try await launch(.eager)
    let advice = eager.advise()
    guard let prediction = eager.predictDeferred(applying: advice, workers: workers) else {
      throw DemoError("the eager launch's report has no first frame")
    }
    let deferred = try await launch(.deferred)
    return AdviceRun(
      eager: eager, advice: advice, prediction: prediction, deferred: deferred, workers: workers)
  }

  /// The advice, the prediction and how it compares with the deferred launch, as text.
  public func text() -> String {
    var lines = ["Advice from the eager launch (estimated savings):"]
    if advice.isEmpty { lines.append("  none") }
    let shown = Advice.worthShowing(advice)
    for item in shown {
      let change = item.suggestion.map { " → \($0)" } ?? ""
      lines.append(
        "  * \(item.kind.rawValue) \(item.service)\(change): saves"
          + " \(Format.milliseconds(item.saving, places: 1)) (\(item.effect.rawValue))")
      lines.append("    \(item.detail)")
    }
    if shown.count < advice.count {
      let hidden = advice.count - shown.count
      lines.append(
        "  (and \(hidden) item\(hidden == 1 ? "" : "s") saving 0.1 ms or less, left out)")
    }
    lines.append("")
    lines.append("Predicted deferred launch (\(workers) worker\(workers == 1 ? "" : "s")):")
    lines += prediction.explanation.map { "  \($0)" }
    lines.append("")
    lines.append(
      Format.left("", 14) + Format.right("eager", 10) + Format.right("predicted", 11)
        + Format.right("deferred", 10))
    for (title, kind, predicted) in [
      ("first frame", Milestone.Kind.firstFrame, prediction.firstFrame),
      ("fully ready", .fullyReady, prediction.fullyReady),
    ] {
      func cell(_ value: Duration?, _ width: Int) -> String {
        Format.right(value.map { Format.milliseconds($0, places: 1) } ?? "-", width)
      }
      lines.append(
        Format.left(title, 14) + cell(eager.offset(of: kind), 10) + cell(predicted, 11)
          + cell(deferred.offset(of: kind), 10))
    }
    let applied = Set(prediction.moved)
    let wired = Set(
      deferred.builds.filter { $0.trigger == .scheduled || $0.stage != .critical }.map(\.service))
    let beyond = wired.subtracting(applied).sorted()
    if !beyond.isEmpty {
      lines.append("")
      lines.append(
        "The deferred app also defers what the advice did not move: \(beyond.joined(separator: ", "))"
          + " (the model leaves their time where the eager launch had it).")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
