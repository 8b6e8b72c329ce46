/// A step of a container's launch, told as it happens to the observer given to
/// ``Container/observeLaunch(_:)``.
///
/// Extensions that report the launch elsewhere (the system's launch measurement, custom
/// signposts, an analytics session) follow the launch through these events instead of wrapping
/// the container's calls.
///
/// ```swift
/// container.observeLaunch { event in
///   if case .milestone(.fullyReady) = event { analytics.markUsable() }
/// }
/// ```
public enum LaunchEvent: Sendable, Hashable {
  /// A milestone was reached, told on the thread that reached it:
  /// ``Milestone/Kind/launchBegan`` inside ``Container/launch(_:)`` (on its caller, before the
  /// first critical build), ``Milestone/Kind/criticalReady`` at its end,
  /// ``Milestone/Kind/firstFrame`` inside ``Container/firstFrameDrawn()``, and
  /// ``Milestone/Kind/fullyReady`` on the thread whose build ended last (inside
  /// ``Container/firstFrameDrawn()`` when nothing was deferred).
  case milestone(Milestone.Kind)
  /// A singleton's build began on the calling thread: its factory, or the dependencies it
  /// builds first. `service` is named as ``BuildRecord/service`` names it.
  case buildBegan(service: String, priority: Priority)
  /// A build begun with ``buildBegan(service:priority:)`` ended, built or failed (its factory
  /// threw, or a service it needs failed before it ran): told on the thread it ended on, the
  /// one it began on unless its factory is `async`.
  case buildEnded(service: String, priority: Priority, outcome: BuildRecord.Outcome)
}

extension Container {
  /// Calls `observer` at each step of the launch: each milestone, and the beginning and end of
  /// every singleton build this container records; `nil` stops it.
  ///
  /// Build events are told only while the container records builds (its `recording` is not
  /// ``Recording/off``); milestones always. The observer runs on the thread of the step, under
  /// no lock of the container, inside the call that made the step (``launch(_:)``, a build, a
  /// scheduled job): keep it short, and hand longer work to a queue. A child container tells
  /// its own observer of its own builds.
  ///
  /// ```swift
  /// container.observeLaunch { event in
  ///   switch event {
  ///   case .buildBegan(let service, _): signposts.begin(service)
  ///   case .buildEnded(let service, _, _): signposts.end(service)
  ///   case .milestone: break
  ///   }
  /// }
  /// ```
  ///
  /// - Parameter observer: What to call, or `nil`.
  public func observeLaunch(_ observer: (@Sendable (LaunchEvent) -> Void)?) {
    recorder.observation.set(observer)
  }

  /// Adds `hazard` to every later ``launchReport(criticalShareLimit:)``: a problem found
  /// outside the container that belongs with the launch, such as the system refusing to
  /// extend its launch measurement (``Hazard/Kind/fieldMeasurement``).
  ///
  /// ```swift
  /// container.addHazard(
  ///   Hazard(kind: .fieldMeasurement, service: "MetricKit", detail: "The system refused …"))
  /// ```
  ///
  /// - Parameter hazard: The hazard, listed after the ones the container finds itself.
  public func addHazard(_ hazard: Hazard) {
    recorder.observation.add(hazard)
  }
}

/// A container's launch observer and the hazards added from outside: one atomic load a build
/// while nothing observes.
final class LaunchObservation: Sendable {
  private let observer = Locked<(@Sendable (LaunchEvent) -> Void)?>(nil)
  /// 1 while an observer is set: read without the lock on every build.
  private let observed = AtomicWord()
  private let added = Locked<[Hazard]>([])

  init() {}

  /// Whether an observer is set.
  @inline(__always)
  var isObserved: Bool { observed.loadAcquire() != 0 }

  func set(_ observer: (@Sendable (LaunchEvent) -> Void)?) {
    self.observer.withLock { $0 = observer }
    observed.storeRelease(observer == nil ? 0 : 1)
  }

  /// Tells the observer, if there is one, of the event `event` makes (made only then).
  func tell(_ event: @autoclosure () -> LaunchEvent) {
    guard isObserved, let observer = observer.withLock({ $0 }) else { return }
    observer(event())
  }

  func add(_ hazard: Hazard) {
    added.withLock { $0.append(hazard) }
  }

  /// The hazards added from outside, in the order they were added.
  var hazards: [Hazard] { added.withLock { $0 } }
}
