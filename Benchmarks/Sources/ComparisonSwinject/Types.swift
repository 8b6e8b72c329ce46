// The small app's types, as Docs/Comparison.md shows them (the same under every library).

protocol Storage: Sendable {
  func read(_ key: String) -> String?
}

final class FileStorage: Storage {
  func read(_ key: String) -> String? { key == "user" ? "ada" : nil }
}

protocol Network: Sendable {
  func fetch(_ path: String) -> String
}

final class HTTPNetwork: Network {
  func fetch(_ path: String) -> String { "live \(path)" }
}

final class SyncService: Sendable {
  let storage: Storage
  let network: Network
  init(storage: Storage, network: Network) {
    self.storage = storage
    self.network = network
  }
}

protocol Analytics: Sendable {
  func track(_ event: String)
}

protocol Logger: Sendable {
  func log(_ message: String)
}

/// One object behind two protocols.
final class AnalyticsService: Analytics, Logger {
  func track(_ event: String) {}
  func log(_ message: String) {}
}

final class UserSession: Sendable {
  let user: String
  init(storage: Storage) { user = storage.read("user") ?? "guest" }
}

final class ImageCache: Sendable {}

final class DetailModel: Sendable {
  let id: Int
  let storage: Storage
  init(id: Int, storage: Storage) {
    self.id = id
    self.storage = storage
  }
}

/// The test double.
final class FakeNetwork: Network {
  func fetch(_ path: String) -> String { "fake \(path)" }
}
