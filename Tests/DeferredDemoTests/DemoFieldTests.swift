import Deferred
import DeferredDemoKit
import DeferredMetricKit
import Dispatch
import Testing

/// `field`: the fixtures' payloads joined to a launch of the demo app with tiny work.
@Suite struct DemoFieldTests {
  /// The fixtures, by path from this file (the command takes them from the package's root).
  static let fixtures = FieldRun.fixturePayloads.map { path in
    let root = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
    return root.joined(separator: "/") + "/" + path
  }

  @MainActor @Test func theFieldIsJoinedToTheDemosOwnLaunch() async throws {
    let fixture = try DemoFixture()
    let payloads = try FieldRun.read(Self.fixtures)
    #expect(payloads.count == 2)
    let outcome = try await LaunchSession(
      mode: .deferred, files: fixture.files, workload: .tiny, screen: Screen(.none),
      interfaceQueue: DispatchQueue(label: "interface")
    ).run()
    let field = FieldReport(payloads: payloads, local: outcome.report)
    // The demo's critical services are in the field and were built here.
    for service in ["Storage", "CachedConfig", "ThemeEngine"] {
      let row = try #require(field.joined.first { $0.name == service })
      #expect(row.field != nil && row.local != nil, "\(service)")
    }
    #expect(field.grown.map(\.service) == ["SyncService"])
    let text = FieldRun.text(field, paths: Self.fixtures)
    #expect(text.hasPrefix("Field data against this launch\n"))
    #expect(text.contains("time to first frame"))
    #expect(text.contains("Field: 2 payloads"))
    #expect(text.contains("grew between payloads\n  SyncService: "))
  }

  @Test func aMissingOrUnreadablePayloadIsAClearError() throws {
    #expect(throws: DemoError.self) { try FieldRun.read(["/nonexistent/payload.json"]) }
    let fixture = try DemoFixture()
    let path = fixture.directory + "/bad.json"
    try Files.write("{\"appVersion\": 3}", to: path)
    do {
      _ = try FieldRun.read([path])
      Issue.record("read a bad payload")
    } catch {
      #expect(error.description.contains("bad.json"))
      #expect(error.description.contains("appVersion"))
    }
  }

  @Test func fieldParses() throws {
    #expect(try Command.parse(["field"]) == .field(FieldOptions()))
    var options = FieldOptions()
    options.payloads = ["a.json", "b.json"]
    options.json = true
    #expect(
      try Command.parse(["field", "--payload", "a.json", "--payload", "b.json", "--json"])
        == .field(options))
    #expect(throws: UsageError.self) { try Command.parse(["field", "--runs", "2"]) }
    #expect(throws: UsageError.self) { try Command.parse(["field", "--payload"]) }
  }
}
