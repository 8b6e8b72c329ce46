// swift-tools-version: 6.0
import PackageDescription

// A sample iOS app wired with Deferred. Its code is a library (SampleApp), so that the SDK check
// compiles it for iOS; the app itself (DeferredSample) only holds the entry point.
let package = Package(
  name: "DeferredSample",
  platforms: [.iOS(.v16), .macOS(.v13)],
  products: [
    .library(name: "SampleApp", targets: ["SampleApp"])
  ],
  dependencies: [
    .package(name: "Deferred", path: "../..")
  ],
  targets: [
    .target(
      name: "SampleApp",
      dependencies: [
        .product(name: "Deferred", package: "Deferred"),
        .product(name: "DeferredSwiftUI", package: "Deferred"),
      ]),
    .executableTarget(name: "DeferredSample", dependencies: ["SampleApp"]),
  ],
  swiftLanguageModes: [.v6]
)
