// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Deferred",
  // What `Synchronization` (Atomic, for the lock-free reads of built services) needs.
  platforms: [.iOS(.v18), .macOS(.v15), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Deferred", targets: ["Deferred"]),
    .library(name: "DeferredSwiftUI", targets: ["DeferredSwiftUI"]),
    .library(name: "DeferredTesting", targets: ["DeferredTesting"]),
  ],
  targets: [
    .target(name: "Deferred"),
    // Views and an observable value that wait for deferred services; the SwiftUI part is
    // compiled where SwiftUI exists.
    .target(name: "DeferredSwiftUI", dependencies: ["Deferred"]),
    // A Swift Testing trait: a child container for each test, with its overrides.
    .target(name: "DeferredTesting", dependencies: ["Deferred"]),
    // The demo's services, app wiring, commands and statistics; `DeferredDemo` only calls it.
    .target(name: "DeferredDemoKit", dependencies: ["Deferred"]),
    .executableTarget(name: "DeferredDemo", dependencies: ["DeferredDemoKit"]),
    .testTarget(name: "DeferredTests", dependencies: ["Deferred"], exclude: ["Golden"]),
    // The demo's services, wiring and commands: apart, so that the library's tests need only it.
    .testTarget(name: "DeferredDemoTests", dependencies: ["Deferred", "DeferredDemoKit"]),
    .testTarget(name: "DeferredSwiftUITests", dependencies: ["Deferred", "DeferredSwiftUI"]),
    .testTarget(name: "DeferredTestingTests", dependencies: ["Deferred", "DeferredTesting"]),
    // The DocC articles' code, and a check that the articles quote it.
    .testTarget(name: "DocExamplesTests", dependencies: ["Deferred", "DeferredTesting"]),
  ],
  swiftLanguageModes: [.v6]
)
