import Deferred
import DeferredDemoKit
import Dispatch
import Testing

/// Whole launches of the demo app with tiny work and no simulated latency: the keys typed at
/// the first frame and the edits they make all arrive, in order, in both modes.
@Suite struct DemoSessionTests {
  /// On the main actor, as the demo runs it: the eager app's launch builds the keypad's view
  /// model there, and the deferred app's main-thread lane runs on the main queue.
  @MainActor @Test(arguments: LaunchMode.allCases)
  func everyKeyAndEveryEditArrives(mode: LaunchMode) async throws {
    let fixture = try DemoFixture()
    let outcome = try await LaunchSession(
      mode: mode, files: fixture.files, workload: .tiny, screen: Screen(.none),
      interfaceQueue: DispatchQueue(label: "interface")
    ).run()
    #expect(outcome.display == "0.25")
    #expect(outcome.edits.map(\.description) == ["12 × 3 + 4 = 40", "2 ÷ 8 = 0.25"])
    #expect(outcome.delivered == outcome.edits)
    #expect(outcome.notes.contains { $0.contains("2 delivered, none lost") })

    let report = outcome.report
    let first = try #require(report.offset(of: .firstFrame))
    let ready = try #require(report.offset(of: .fullyReady))
    #expect(first <= ready)
    let scheduled = Set(report.builds.filter { $0.trigger == .scheduled }.map(\.service))
    switch mode {
    case .eager:
      #expect(scheduled.isEmpty)
      #expect(report.builds.allSatisfy { $0.start <= first })
    case .deferred:
      #expect(
        scheduled == [
          "Calculator", "KeypadModel", "LocationProvider", "SyncService", "TipsCatalog",
          "Achievements", "TapeIndex", "Suggestions", "Conversions", "ConfigRefresh",
        ])
      let keypad = try #require(report.builds.first { $0.service == "KeypadModel" })
      #expect(keypad.thread == "main" && keypad.start >= first)
    }
  }
}
