import Testing

@testable import Deferred

/// A child container's report covers what it shares with its ancestors: each build once, with
/// the container it ran in.
@Suite struct FamilyReportTests {
  /// A test's child that overrides the network, launched on its own: its report has the whole
  /// critical phase, the builds its parent made for it among them.
  @Test func aLaunchedChildsReportHasWhatItShares() throws {
    let scheduler = ManualScheduler()
    let clock = scheduler.clock
    let app = Container(scheduler: scheduler, clock: clock)
    try app.register(Storage.self, priority: .critical) {
      clock.advance(by: .milliseconds(6))
      return Storage()
    }
    try app.register(Network.self, priority: .afterFirstFrame()) { Network() }
    try app.register(SyncService.self, priority: .critical, SyncService.init(storage:network:))
    try app.register(AppModel.self, AppModel.init(sync:))
    let test = app.makeChild()
    try test.register(Network.self, priority: .critical) { Network(online: false) }
    try test.launch()
    try test.firstFrameDrawn()
    scheduler.runAll()
    _ = try test.resolve(AppModel.self)

    let report = test.launchReport()
    let builds = report.builds.map { ($0.service, $0.trigger, $0.container) }
    #expect(builds.count == 4, "\(builds)")
    #expect(Set(report.builds.map(\.service)) == ["Storage", "Network", "SyncService", "AppModel"])
    let storage = try #require(report.builds.first { $0.service == "Storage" })
    #expect(storage.container == "root")
    #expect(storage.trigger == .launch)
    #expect(report.builds.filter { $0.service != "Storage" }.allSatisfy { $0.container == nil })
    let critical = try #require(report.criticalPhase)
    #expect(critical >= .milliseconds(6))
    #expect(report.builds.filter { $0.trigger == .launch }.count == 3)
    // In JSON, the container is written for a shared build only, and read back.
    let decoded = try LaunchReport(json: report.json())
    #expect(decoded.builds.map(\.container) == report.builds.map(\.container))
    #expect(report.json().components(separatedBy: "\"container\"").count == 2)

    // The parent's own report: its builds, no child's.
    let parent = app.launchReport()
    #expect(parent.builds.map(\.service) == ["Storage"])
    #expect(parent.builds.allSatisfy { $0.container == nil })
  }

  /// What a child copies or overrides is reported once, as the child's: the parent's build of
  /// the same service is not the child's.
  @Test func aParentsBuildOfWhatTheChildCopiesIsNotShared() throws {
    let app = Container()
    try app.register(Storage.self) { Storage() }
    try app.register(Network.self) { Network() }
    try app.register(SyncService.self, SyncService.init(storage:network:))
    _ = try app.resolve(SyncService.self)
    let test = app.makeChild()
    try test.register(Network.self) { Network(online: false) }
    _ = try test.resolve(SyncService.self)
    let builds = test.launchReport().builds.map { "\($0.service)@\($0.container ?? "child")" }
    #expect(builds.sorted() == ["Network@child", "Storage@root", "SyncService@child"])
  }
}
