// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Deferred",
  // What `Synchronization` (Atomic, for the lock-free reads of built services) needs.
  platforms: [.iOS(.v18), .macOS(.v15), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Deferred", targets: ["Deferred"])
  ],
  targets: [
    .target(name: "Deferred"),
    // The demo's services, app wiring, commands and statistics; `DeferredDemo` only calls it.
    .target(name: "DeferredDemoKit", dependencies: ["Deferred"]),
    .executableTarget(name: "DeferredDemo", dependencies: ["DeferredDemoKit"]),
    .testTarget(name: "DeferredTests", dependencies: ["Deferred"], exclude: ["Golden"]),
    // The demo's services, wiring and commands: apart, so that the library's tests need only it.
    .testTarget(name: "DeferredDemoTests", dependencies: ["Deferred", "DeferredDemoKit"]),
  ],
  swiftLanguageModes: [.v6]
)
