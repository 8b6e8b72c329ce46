import Deferred
import DeferredDemoKit
import DeferredReports
import Dispatch
import Testing

/// `advise`: the eager app's advice, its prediction and the deferred launch, from whole launches
/// of the demo app with tiny work. Structure only: the times are real.
@Suite struct DemoAdviseTests {
  @MainActor @Test func adviceDefersWhatTheFirstFrameDoesNotNeed() async throws {
    let fixture = try DemoFixture()
    let run = try await AdviceRun.measure(workers: 2) { mode in
      try await LaunchSession(
        mode: mode, files: fixture.files, workload: .tiny, screen: Screen(.none),
        interfaceQueue: DispatchQueue(label: "interface")
      ).run().report
    }
    // The first frame draws the keypad (a transient) from the theme and the cached config:
    // handed to its factory, not to the app.
    #expect(run.eager.firstFrameUses.contains("KeypadFrame"))
    #expect(!run.eager.firstFrameUses.contains("ThemeEngine"))
    let deferred = Set(run.advice.filter { $0.kind == .deferCritical }.map(\.service))
    #expect(
      deferred == [
        "Calculator", "KeypadModel", "LocationProvider", "Conversions", "SimulatedRemote",
        "TipsCatalog", "Achievements", "TapeIndex", "Suggestions",
      ])
    #expect(
      Set(run.advice.filter { $0.kind == .deferFirstFrameBuild }.map(\.service)) == [
        "SyncService", "ConfigRefresh",
      ])
    // What the first frame needs is never moved (the chain may name it, as what bounds it).
    #expect(
      run.advice.filter { $0.kind != .criticalChain }.allSatisfy {
        $0.service != "Storage" && $0.service != "ThemeEngine"
      })
    #expect(run.prediction.moved.count == 11)
    let eagerFirst = try #require(run.eager.offset(of: .firstFrame))
    #expect(run.prediction.firstFrame < eagerFirst)
    #expect(run.prediction.fullyReady >= run.prediction.firstFrame)
    #expect(run.deferred.offset(of: .firstFrame) != nil)
    let text = run.text()
    #expect(text.contains("Advice from the eager launch"))
    #expect(text.contains("deferCritical Calculator → afterFirstFrame(utility)"))
    #expect(text.contains("Predicted deferred launch (2 workers):"))
    #expect(text.contains("first frame") && text.contains("predicted") && text.contains("deferred"))
  }

  @Test func adviseParses() throws {
    #expect(try Command.parse(["advise"]) == .advise(AdviseOptions()))
    var slow = AdviseOptions()
    slow.slowdown = 2
    #expect(try Command.parse(["advise", "--slowdown", "2"]) == .advise(slow))
    #expect(throws: UsageError.self) { try Command.parse(["advise", "--runs", "2"]) }
  }
}
