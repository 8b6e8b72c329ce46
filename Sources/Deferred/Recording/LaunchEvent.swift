/// A step of a container's launch, told as it happens to the observers added with
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
  /// Adds `observer`, called at each step of the launch from now on: each milestone, and the
  /// beginning and end of every singleton build this container records.
  ///
  /// Observers are called in the order they were added, each until its ``LaunchObservation``
  /// is cancelled (dropping the handle does not remove it). Build events are told only while
  /// the container records builds (its `recording` is not ``Recording/off``); milestones
  /// always. Each observer runs on the thread of the step, under no lock of the container,
  /// inside the call that made it: keep it short. A child tells its own observers of its own
  /// builds.
  ///
  /// ```swift
  /// let signposting = container.observeLaunch { event in
  ///   switch event {
  ///   case .buildBegan(let service, _): signposts.begin(service)
  ///   case .buildEnded(let service, _, _): signposts.end(service)
  ///   case .milestone: break
  ///   }
  /// }
  /// // Later, to stop:
  /// signposting.cancel()
  /// ```
  ///
  /// - Parameter observer: What to call at each step.
  /// - Returns: The handle that removes `observer` when cancelled.
  @discardableResult
  public func observeLaunch(
    _ observer: @escaping @Sendable (LaunchEvent) -> Void
  ) -> LaunchObservation {
    LaunchObservation(recorder.observation, id: recorder.observation.add(observer))
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

/// One launch observer added with ``Container/observeLaunch(_:)``: cancel it to remove that
/// observer, and only it.
///
/// Dropping the handle leaves the observer in place; cancelling twice does nothing more. A step
/// already telling its observers may still tell it; no later step does.
///
/// ```swift
/// let observation = container.observeLaunch { event in log(event) }
/// observation.cancel()
/// ```
public final class LaunchObservation: Sendable {
  private let observers: LaunchObservers
  private let id: Int

  init(_ observers: LaunchObservers, id: Int) {
    self.observers = observers
    self.id = id
  }

  /// Removes the observer from its container; the container's other observers stay.
  public func cancel() {
    observers.remove(id)
  }
}
