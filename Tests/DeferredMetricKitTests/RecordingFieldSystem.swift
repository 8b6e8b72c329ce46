import Deferred
import DeferredMetricKit

/// A stand-in for MetricKit that records every call, whether it was made on the main queue,
/// and refuses the calls it is told to.
final class RecordingFieldSystem: FieldSystem {
  struct Refusal: Error, CustomStringConvertible {
    let call: String
    var description: String { "MXErrorDomain error 1: \(call) refused" }
  }

  enum Call: Hashable, CustomStringConvertible {
    case extend(String, onMain: Bool)
    case finish(String, onMain: Bool)
    case signpost(FieldSignpostEdge, category: String, name: FieldSignposts.Name)

    var description: String {
      switch self {
      case .extend(let id, let onMain): "extend \(id)\(onMain ? "" : " OFF MAIN")"
      case .finish(let id, let onMain): "finish \(id)\(onMain ? "" : " OFF MAIN")"
      case .signpost(let edge, let category, let name): "\(edge) \(category) \(name.rawValue)"
      }
    }
  }

  private let calls = Locked<[Call]>([])
  let refusesExtend: Bool
  let refusesFinish: Bool

  init(refusesExtend: Bool = false, refusesFinish: Bool = false) {
    self.refusesExtend = refusesExtend
    self.refusesFinish = refusesFinish
  }

  var all: [Call] { calls.withLock { $0 } }

  /// The extended-launch calls only, as text.
  var measurement: [String] {
    all.compactMap { call in
      if case .signpost = call { return nil }
      return call.description
    }
  }

  /// The signposts only, as text.
  var signposts: [String] {
    all.compactMap { call in
      guard case .signpost = call else { return nil }
      return call.description
    }
  }

  func extendLaunchMeasurement(taskID: String) throws {
    calls.withLock { $0.append(.extend(taskID, onMain: Container.isOnMainQueue)) }
    if refusesExtend { throw Refusal(call: "extendLaunchMeasurement") }
  }

  func finishExtendedLaunchMeasurement(taskID: String) throws {
    calls.withLock { $0.append(.finish(taskID, onMain: Container.isOnMainQueue)) }
    if refusesFinish { throw Refusal(call: "finishExtendedLaunchMeasurement") }
  }

  func signpost(_ edge: FieldSignpostEdge, category: String, name: FieldSignposts.Name) {
    calls.withLock { $0.append(.signpost(edge, category: category, name: name)) }
  }
}
