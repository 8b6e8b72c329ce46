// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Deferred",
  platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "Deferred", targets: ["Deferred"])
  ],
  targets: [
    .target(name: "Deferred", dependencies: ["CDeferredSync"]),
    // The lock and the atomic words the library needs, in C: `Synchronization` needs iOS 18.
    .target(name: "CDeferredSync"),
    // The demo's services, app wiring, commands and statistics; `DeferredDemo` only calls it.
    .target(name: "DeferredDemoKit", dependencies: ["Deferred"]),
    .executableTarget(name: "DeferredDemo", dependencies: ["DeferredDemoKit"]),
    .testTarget(name: "DeferredTests", dependencies: ["Deferred"], exclude: ["Golden"]),
    // The demo's services, wiring and commands: apart, so that the library's tests need only it.
    .testTarget(name: "DeferredDemoTests", dependencies: ["Deferred", "DeferredDemoKit"]),
  ],
  swiftLanguageModes: [.v6]
)
