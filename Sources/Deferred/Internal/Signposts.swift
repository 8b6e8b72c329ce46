#if canImport(os)
  import os
#endif

/// Builds and milestones as signpost intervals and events in the Points of Interest category,
/// which Instruments shows beside the app's own start-up activities, as Apple's guidance for
/// launch work asks. Emitted only while recording is on.
///
/// The Apple path is not compiled on Linux, which has no `os` module: there, every call does
/// nothing, and the recorder is what the tests read.
enum Signposts {
  #if canImport(os)
    private static let signposter = OSSignposter(
      subsystem: "Deferred", category: .pointsOfInterest)

    /// A build's interval under way.
    typealias Interval = OSSignpostIntervalState?

    /// Begins the interval of a build of `key`.
    static func beginBuild(_ key: AnyServiceKey) -> Interval {
      let name = key.description
      return signposter.beginInterval(
        "Build", id: signposter.makeSignpostID(), "\(name, privacy: .public)")
    }

    /// Ends a build's interval.
    static func endBuild(_ interval: Interval) {
      guard let interval else { return }
      signposter.endInterval("Build", interval)
    }

    /// Marks a launch milestone.
    static func milestone(_ kind: Milestone.Kind) {
      let name = kind.rawValue
      signposter.emitEvent("Milestone", "\(name, privacy: .public)")
    }
  #else
    /// Nothing under way.
    struct Nothing {}
    typealias Interval = Nothing?

    static func beginBuild(_ key: AnyServiceKey) -> Interval { nil }

    static func endBuild(_ interval: Interval) {}

    static func milestone(_ kind: Milestone.Kind) {}
  #endif
}
