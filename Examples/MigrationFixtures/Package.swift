// swift-tools-version: 6.0
import PackageDescription

// Two apps' composition roots migrated to Deferred, with their services declared as the apps
// declare them (README.md): StationApp, from a Swinject app, builds in the Swift 5 language
// mode; FitnessApp, from a Factory app, in Swift 6. LaunchFixtures launches both.
let package = Package(
  name: "MigrationFixtures",
  platforms: [.iOS(.v16), .macOS(.v13)],
  products: [
    .library(name: "StationApp", targets: ["StationApp"]),
    .library(name: "FitnessApp", targets: ["FitnessApp"]),
  ],
  dependencies: [
    .package(name: "Deferred", path: "../..")
  ],
  targets: [
    .target(
      name: "StationApp",
      dependencies: [.product(name: "Deferred", package: "Deferred")],
      swiftSettings: [.swiftLanguageMode(.v5)]),
    .target(
      name: "FitnessApp",
      dependencies: [.product(name: "Deferred", package: "Deferred")]),
    .executableTarget(name: "LaunchFixtures", dependencies: ["StationApp", "FitnessApp"]),
  ],
  swiftLanguageModes: [.v6]
)
