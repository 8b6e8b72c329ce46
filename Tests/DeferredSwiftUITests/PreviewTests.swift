import Deferred
import Testing

@testable import DeferredSwiftUI

/// The app's network, and a preview's double of it.
protocol Network: Sendable {
  var isOffline: Bool { get }
}
struct RealNetwork: Network { var isOffline: Bool { false } }
struct OfflineNetwork: Network { var isOffline: Bool { true } }

final class Feed: Sendable {
  let network: any Network
  init(network: any Network) { self.network = network }
}

/// The app's composition root, as the app calls it.
enum PreviewedApp {
  static func register(in container: Container) throws {
    try container.register((any Network).self) { RealNetwork() }
    try container.register(Feed.self, priority: .afterFirstFrame(), Feed.init(network:))
    try container.register(Catalog.self, priority: .idle(after: .seconds(60))) { Catalog() }
  }
}

@MainActor @Suite struct PreviewTests {
  @Test func aPreviewStartsFromTheAppsRegistrationsWithAFewOverrides() async throws {
    let container = Container.preview(registering: PreviewedApp.register) { container in
      try container.register((any Network).self, replacing: true) { OfflineNetwork() }
    }
    // The app's Feed, built in its turn with the double; the idle Catalog without its delay.
    let feed = try await ServiceLoader(Feed.self, in: container).value()
    #expect(feed.network.isOffline)
    _ = try await ServiceLoader(Catalog.self, in: container).value()
  }
}
