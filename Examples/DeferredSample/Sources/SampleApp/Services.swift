import Foundation

/// The colours and fonts the first frame is drawn with: the one critical service.
public struct Theme: Sendable {
  /// The accent colour's name.
  public let accent: String

  /// Loads the theme (in a real app: an asset catalog, a font registration).
  public static func load() -> Theme { Theme(accent: "orange") }
}

/// Files on disk: built when first used.
public final class Storage: Sendable {
  /// Where the files are.
  public let directory: URL

  /// Opens the app's storage in its caches directory.
  public init() throws {
    directory = try FileManager.default.url(
      for: .cachesDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
  }

  /// Opens storage in `directory`: a preview's or a test's.
  ///
  /// - Parameter directory: Where the files are.
  public init(directory: URL) {
    self.directory = directory
  }
}

/// Evaluates what the keypad types.
public final class Calculator: Sendable {
  /// Makes a calculator.
  public init() {}

  /// The sum of the numbers in `expression`, the one operation the sample knows.
  ///
  /// - Parameter expression: Numbers separated by `+`.
  /// - Returns: Their sum.
  public func evaluate(_ expression: String) -> Double {
    expression.split(separator: "+").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
      .reduce(0, +)
  }
}

/// Keeps past calculations on disk and sends them to a server: after the first frame.
public final class SyncService: Sendable {
  /// Where it keeps the calculations.
  public let storage: Storage

  /// Makes the service.
  ///
  /// - Parameter storage: Where to keep the calculations.
  public init(storage: Storage) { self.storage = storage }

  /// Keeps a calculation and queues it for the server.
  ///
  /// - Parameter entry: The calculation, as typed.
  public func push(_ entry: String) {}
}

/// A large table of unit conversions: built once the app is idle.
public final class Conversions: Sendable {
  /// The conversion factors, by unit.
  public let factors: [String: Double]

  /// Builds the table.
  public init() { factors = ["km/mi": 1.609_344, "kg/lb": 0.453_592_37] }
}

/// The signed-in user: one per sign-in, dropped when the user signs out (the `account` scope).
public final class Account: Sendable {
  /// Who signed in.
  public let name: String
  /// When, to tell one sign-in from the next.
  public let signedInAt: Date

  /// Signs the user in (in a real app: restores the session from the keychain).
  public static func signIn() -> Account { Account(name: "Ada", signedInAt: Date()) }

  init(name: String, signedInAt: Date) {
    self.name = name
    self.signedInAt = signedInAt
  }
}
