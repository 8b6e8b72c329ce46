// swift-tools-version: 6.0
import PackageDescription

#if canImport(AppleProductTypes)
  import AppleProductTypes

  // On a Mac, Xcode runs the app on an iPhone or iPad (simulator or device).
  let app: [Product] = [
    .iOSApplication(
      name: "DeferredSample",
      targets: ["DeferredSample"],
      bundleIdentifier: "org.example.DeferredSample",
      displayVersion: "1.0",
      bundleVersion: "1",
      appIcon: .placeholder(icon: .calculator),
      accentColor: .presetColor(.orange),
      supportedDeviceFamilies: [.pad, .phone],
      supportedInterfaceOrientations: [
        .portrait, .landscapeRight, .landscapeLeft,
        .portraitUpsideDown(.when(deviceFamilies: [.pad])),
      ]
    )
  ]
#else
  // Elsewhere (Linux, a plain `swift build`) the package is described without the app product.
  let app: [Product] = []
#endif

// A sample iOS app wired with Deferred. Its code is a library (SampleApp), so that the SDK check
// compiles all of it for iOS; the app's target (DeferredSample) only holds the entry point.
let package = Package(
  name: "DeferredSample",
  platforms: [.iOS(.v16), .macOS(.v13)],
  products: app + [
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
        // The debug screen's report, as text.
        .product(name: "DeferredReports", package: "Deferred"),
      ]),
    .executableTarget(name: "DeferredSample", dependencies: ["SampleApp"]),
  ],
  swiftLanguageModes: [.v6]
)
