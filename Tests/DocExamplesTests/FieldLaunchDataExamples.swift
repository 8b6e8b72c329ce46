import Deferred
import DeferredHistory
import DeferredMetricKit
import Foundation
import Testing

// Every block of Swift code in DeferredMetricKit's DocC catalog
// (Sources/DeferredMetricKit/DeferredMetricKit.docc) is quoted from this file: the last test
// checks it, line for line. Edit the code here first, then the article.

extension DocExamples {
  @MainActor @Suite struct FieldLaunchData {
    /// The payload fixtures of DeferredMetricKit's tests.
    static func fixture(_ name: String) throws -> Data {
      try Data(
        contentsOf: ArticleSnippetTests.root.appendingPathComponent(
          "Tests/DeferredMetricKitTests/Fixtures/\(name).json"))
    }

    @Test func extendTheLaunchMeasurement() throws {
      let container = Container()
      try container.register(Catalog.self, priority: .afterFirstFrame()) { Catalog() }
      try container.register(SyncService.self, priority: .afterFirstFrame()) {
        SyncService(storage: try Storage(), network: Network())
      }

      let field = FieldMeasurement(usable: .built(["Catalog", "SyncService"]))
      field.attach(to: container)
      try container.launch()  // in application(_:didFinishLaunchingWithOptions:)

      // Without MetricKit (here) the measurement does nothing, and the launch goes on.
      #expect(field.emittedServices.isEmpty)
    }

    @Test func readThePayloadsBesideThisDevice() throws {
      let container = Container()
      try container.register(SyncService.self, priority: .afterFirstFrame()) {
        SyncService(storage: try Storage(), network: Network())
      }
      try container.launch()
      let day1 = try Self.fixture("metric-payload-day1")
      let day2 = try Self.fixture("metric-payload-day2")

      let payloads = try FieldPayload.read(day1) + FieldPayload.read(day2)
      let field = FieldReport(payloads: payloads, local: container.launchReport())
      print(field.text())

      #expect(field.text().contains("SyncService"))
    }

    @Test func scheduleAFreshInstallByTheField() throws {
      let cachesDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("field-history-\(UInt64.random(in: 0...UInt64.max))").path
      try FileManager.default.createDirectory(
        atPath: cachesDirectory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: cachesDirectory) }
      let shippedPayloads = try FieldPayload.read(Self.fixture("metric-payload-day1"))

      let history = LaunchHistory(directory: cachesDirectory)
      FieldReport(payloads: shippedPayloads).seed(history)
      let container = Container(history: history)

      #expect(history.launchCount == 1)
      #expect(!history.costs(of: "SyncService").isEmpty)
      _ = container
    }
  }
}

extension ArticleSnippetTests {
  @Test func everySwiftBlockOfTheMetricKitCatalogIsQuotedFromCompiledCode() throws {
    let catalog = Self.root.appendingPathComponent(
      "Sources/DeferredMetricKit/DeferredMetricKit.docc")
    let pages = try FileManager.default.contentsOfDirectory(
      at: catalog, includingPropertiesForKeys: nil
    )
    .filter { $0.pathExtension == "md" }
    let source = Self.lines(
      of: try String(
        contentsOf: Self.root.appendingPathComponent(
          "Tests/DocExamplesTests/FieldLaunchDataExamples.swift"),
        encoding: .utf8))
    var checked = 0
    for page in pages {
      for block in Self.swiftBlocks(in: try String(contentsOf: page, encoding: .utf8)) {
        checked += 1
        #expect(
          Self.contains(source, block),
          "\(page.lastPathComponent): a block is not in FieldLaunchDataExamples.swift:\n\(block.joined(separator: "\n"))"
        )
      }
    }
    #expect(checked >= 3)
  }
}
