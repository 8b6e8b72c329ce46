import Deferred
import Dispatch

/// The services the DocC articles' code uses: small stand-ins for an app's, so that every
/// block an article shows compiles and runs here (``ArticleSnippetTests`` checks that each
/// block is quoted from this target).
enum DocExamples {
  struct Theme: Sendable {
    static func load() -> Theme { Theme() }
  }

  final class Storage: Sendable {
    init() throws {}
  }

  final class Network: Sendable {
    let online: Bool
    init(online: Bool = true) { self.online = online }
  }

  final class SyncService: Sendable {
    let storage: Storage
    let network: Network
    init(storage: Storage, network: Network) {
      self.storage = storage
      self.network = network
    }
    func push(_ edit: String) {}
  }

  final class Catalog: Sendable {}
  final class Config: Sendable {}
  final class Calculator: Sendable {}

  @MainActor final class KeypadModel {
    let calculator: Calculator
    init(calculator: Calculator) { self.calculator = calculator }
  }

  /// What the app would draw its first frame with.
  static func drawFirstFrame(theme: Theme) {}
}
