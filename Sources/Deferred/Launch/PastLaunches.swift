/// What a container asks of the launch history it was given (`DeferredHistory`'s
/// `LaunchHistory`): the costs to rank the first frame's background builds by, a place to
/// record each launch once fully ready, and the hazards a report names against the launches
/// before. The history's storage and format stay outside the core.
package protocol PastLaunches: AnyObject, Sendable {
  /// How many launches are remembered.
  var launchCount: Int { get }
  /// The median self time of `service`'s successful builds, if any was remembered.
  func typicalSelfTime(of service: String) -> Duration?
  /// Reads the stored history now, if it was not read yet.
  func load()
  /// A token to record a launch with, so that its report compares it with the launches before.
  func reserveToken() -> Int
  /// Adds a launch, keeping the history as it was before for the report made with `token`.
  func record(_ report: LaunchReport, token: Int)
  /// Writes the launches recorded since the last save.
  func save()
  /// The storage's problems, then the regressions of `builds` and `milestones` against the
  /// history as it was before the launch recorded with `token` (as it is, without one).
  func hazards(builds: [BuildRecord], milestones: [Milestone], token: Int?) -> [Hazard]
}
