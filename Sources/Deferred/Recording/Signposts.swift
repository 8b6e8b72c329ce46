#if canImport(os)
  import os
#endif

/// Builds and milestones as signpost intervals and events in the Points of Interest category,
/// which Instruments shows beside the app's own start-up activities, as Apple's guidance for
/// launch work asks. Emitted only while recording is on, and only while an instrument listens:
/// with none, a build costs one test of the signposter, and neither the key's description nor
/// a signpost ID is made.
///
/// The Apple path is not compiled on Linux, which has no `os` module: there, nothing listens,
/// and the recorder is what the tests read. What decides whether anything is made is
/// ``begin(on:named:)`` and ``emit(on:named:)``, which tests drive with an instrument of their
/// own.
enum Signposts {
  #if canImport(os)
    /// Instruments' Points of Interest, through `OSSignposter`.
    struct PointsOfInterest: SignpostInstrument {
      let signposter = OSSignposter(subsystem: "Deferred", category: .pointsOfInterest)

      /// Whether an instrument records the signposter's signposts now.
      var isEnabled: Bool { signposter.isEnabled }

      func beginInterval(named name: String) -> OSSignpostIntervalState {
        signposter.beginInterval(
          "Build", id: signposter.makeSignpostID(), "\(name, privacy: .public)")
      }

      func endInterval(_ interval: OSSignpostIntervalState) {
        signposter.endInterval("Build", interval)
      }

      func event(named name: String) {
        signposter.emitEvent("Milestone", "\(name, privacy: .public)")
      }
    }
  #else
    /// No signposts on this platform: nothing ever listens.
    struct PointsOfInterest: SignpostInstrument {
      /// No interval.
      struct Nothing {}
      var isEnabled: Bool { false }
      func beginInterval(named name: String) -> Nothing { Nothing() }
      func endInterval(_ interval: Nothing) {}
      func event(named name: String) {}
    }
  #endif

  private static let instrument = PointsOfInterest()

  /// A build's interval under way, if an instrument listened when it began.
  typealias Interval = PointsOfInterest.Interval?

  /// Begins the interval of a build of `node`; its key's description is made only if an
  /// instrument listens.
  @inline(__always)
  static func beginBuild(of node: AnyNode) -> Interval {
    begin(on: instrument) { node.key.description }
  }

  /// Ends a build's interval.
  static func endBuild(_ interval: Interval) {
    guard let interval else { return }
    instrument.endInterval(interval)
  }

  /// Marks a launch milestone.
  static func milestone(_ kind: Milestone.Kind) {
    emit(on: instrument) { kind.rawValue }
  }

  /// Begins an interval on `instrument` named `name()`, if it listens; `name` is called only
  /// then.
  @inline(__always)
  static func begin<Instrument: SignpostInstrument>(
    on instrument: Instrument, named name: () -> String
  ) -> Instrument.Interval? {
    guard instrument.isEnabled else { return nil }
    return instrument.beginInterval(named: name())
  }

  /// Emits an event on `instrument` named `name()`, if it listens; `name` is called only then.
  @inline(__always)
  static func emit<Instrument: SignpostInstrument>(
    on instrument: Instrument, named name: () -> String
  ) {
    guard instrument.isEnabled else { return }
    instrument.event(named: name())
  }
}

/// What signposts are emitted to: Instruments' Points of Interest on Apple platforms, or a
/// test's stand-in.
protocol SignpostInstrument: Sendable {
  /// An interval under way.
  associatedtype Interval
  /// Whether anything records signposts now: when not, nothing is made for one.
  var isEnabled: Bool { get }
  /// Begins an interval named `name`.
  func beginInterval(named name: String) -> Interval
  /// Ends an interval.
  func endInterval(_ interval: Interval)
  /// Emits an event named `name`.
  func event(named name: String)
}
