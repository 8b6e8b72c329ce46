// swift-tools-version: 6.0
import PackageDescription

// A path dependency is identified by its folder's name, which is whatever the clone of the
// root package is called: read it rather than assume it.
let root = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "Deferred")

let package = Package(
  name: "DeferredBenchmarks",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [
    .package(path: ".."),
    .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    .package(url: "https://github.com/ordo-one/malloc-interposer", exact: "1.6.1"),
  ],
  targets: [
    .executableTarget(
      name: "DeferredBenchmarks",
      dependencies: [
        "ChainServices",
        .product(name: "Deferred", package: root),
        .product(name: "DeferredHistory", package: root),
        .product(name: "Swinject", package: "Swinject"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
      ]
    ),
    // 1,000 distinct service types, each needing the previous, for every container: generated
    // by Scripts/generate-chain-services.swift.
    .target(
      name: "ChainServices",
      dependencies: [
        .product(name: "Deferred", package: root),
        .product(name: "Swinject", package: "Swinject"),
        .product(name: "Dependencies", package: "swift-dependencies"),
      ]
    ),
    // The peers' code that Docs/Comparison.md shows, compiled here where the peers are
    // (DocExamplesTests checks that the page quotes it). Nothing depends on these targets and
    // nothing runs them.
    .target(
      name: "ComparisonSwinject",
      dependencies: [.product(name: "Swinject", package: "Swinject")]
    ),
    .target(
      name: "ComparisonDependencies",
      dependencies: [.product(name: "Dependencies", package: "swift-dependencies")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
