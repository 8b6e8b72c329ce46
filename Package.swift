// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Deferred",
  platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "Deferred", targets: ["Deferred"]),
    .library(name: "DeferredReports", targets: ["DeferredReports"]),
    .library(name: "DeferredSwiftUI", targets: ["DeferredSwiftUI"]),
    .library(name: "DeferredTesting", targets: ["DeferredTesting"]),
    .library(name: "DeferredMetricKit", targets: ["DeferredMetricKit"]),
    .library(name: "DeferredHistory", targets: ["DeferredHistory"]),
  ],
  targets: [
    .target(
      name: "Deferred",
      dependencies: [
        .target(
          name: "CDeferredSync",
          condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst]))
      ]),
    // C11 atomics on words Swift allocates, for Apple platforms: `Synchronization`'s `Atomic`
    // needs iOS 18 there. Linux uses `Synchronization`.
    .target(name: "CDeferredSync"),
    // A launch report's renderings (text table, Chrome trace, SVG timeline, DOT graph),
    // budgets, the ideal bound and the prediction: pure functions of a recorded report, for
    // development, tests and CI. An app's release build records with `Deferred` alone.
    .target(name: "DeferredReports", dependencies: ["Deferred"]),
    // A launch history kept across launches (in a file of a directory, or a storage of the
    // app's own): what each service cost, to order the background builds by and to name
    // regressions. The container reaches it through a package seam; storage and format stay
    // out of the core.
    .target(name: "DeferredHistory", dependencies: ["Deferred"]),
    // Views and an observable value that wait for deferred services; the SwiftUI part is
    // compiled where SwiftUI exists.
    .target(name: "DeferredSwiftUI", dependencies: ["Deferred"]),
    // A Swift Testing trait: a child container for each test, with its overrides.
    .target(name: "DeferredTesting", dependencies: ["Deferred"]),
    // Field launch data from MetricKit: the extended launch, per-service signposts, payloads
    // read and joined to the launch report. The MetricKit calls are compiled for iOS only;
    // the rest everywhere.
    .target(name: "DeferredMetricKit", dependencies: ["Deferred", "DeferredHistory"]),
    // The demo's services, app wiring, commands and statistics; `DeferredDemo` only calls it.
    .target(
      name: "DeferredDemoKit",
      dependencies: ["Deferred", "DeferredReports", "DeferredHistory", "DeferredMetricKit"]),
    .executableTarget(name: "DeferredDemo", dependencies: ["DeferredDemoKit"]),
    .testTarget(
      name: "DeferredTests", dependencies: ["Deferred", "DeferredReports", "DeferredHistory"],
      exclude: ["Golden"]),
    // The demo's services, wiring and commands: apart, so that the library's tests need only it.
    .testTarget(
      name: "DeferredDemoTests",
      dependencies: ["Deferred", "DeferredReports", "DeferredHistory", "DeferredDemoKit"]),
    .testTarget(name: "DeferredSwiftUITests", dependencies: ["Deferred", "DeferredSwiftUI"]),
    .testTarget(name: "DeferredTestingTests", dependencies: ["Deferred", "DeferredTesting"]),
    // The payload fixtures are read from their folder by path, as the demo reads them.
    .testTarget(
      name: "DeferredMetricKitTests",
      dependencies: ["Deferred", "DeferredReports", "DeferredHistory", "DeferredMetricKit"],
      exclude: ["Fixtures"]),
    // The DocC articles' code (the core's catalog and DeferredMetricKit's), and a check that
    // the articles quote it.
    .testTarget(
      name: "DocExamplesTests",
      dependencies: [
        "Deferred", "DeferredReports", "DeferredHistory", "DeferredTesting", "DeferredMetricKit",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
