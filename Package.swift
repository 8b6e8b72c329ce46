// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Deferred",
  products: [
    .library(name: "Deferred", targets: ["Deferred"])
  ],
  targets: [
    .target(name: "Deferred"),
    .executableTarget(name: "DeferredDemo", dependencies: ["Deferred"]),
    .testTarget(name: "DeferredTests", dependencies: ["Deferred"], exclude: ["Golden"]),
  ],
  swiftLanguageModes: [.v6]
)
