/// How Deferred's builds and launch phases are named as MetricKit custom signposts, and read
/// back from a payload's `signpostMetrics`.
///
/// A custom signpost's name must be a `StaticString` (a literal compiled into the app), and its
/// category is any string (MetricKit's `makeLogHandle(category:)`). Service names are only
/// known at run time, so a service travels in the **category**, `Deferred/<service>`, and every
/// build has the one literal name `build`. The two launch phases are signposts of the category
/// `Deferred`, named `launchToFirstFrame` and `firstFrameToFullyReady`. Each metric in a payload
/// is one category and name, so the payload keeps each service apart, named as
/// `BuildRecord.service` names it.
///
/// ```swift
/// FieldSignposts.category(of: "SyncService")  // "Deferred/SyncService"
/// FieldSignposts.service(inCategory: "Deferred/SyncService")  // "SyncService"
/// ```
public enum FieldSignposts {
  /// The category of the launch phases.
  public static let phaseCategory = "Deferred"
  /// What every service's category starts with.
  public static let servicePrefix = "Deferred/"
  /// The longest service name emitted, in UTF-8 bytes: a longer one is cut there (categories
  /// are kept by the system as the app gives them; a short one costs less to keep).
  public static let nameLimit = 120

  /// The literal names a signpost of Deferred's has: the only ones it emits.
  public enum Name: String, Sendable, Hashable, CaseIterable, Codable {
    /// A service's build, in the service's own category.
    case build
    /// From `Container.launch(_:)` to the first frame.
    case launchToFirstFrame
    /// From the first frame to full readiness.
    case firstFrameToFullyReady

    /// The name as the `StaticString` MetricKit's `mxSignpost` takes.
    public var staticName: StaticString {
      switch self {
      case .build: "build"
      case .launchToFirstFrame: "launchToFirstFrame"
      case .firstFrameToFullyReady: "firstFrameToFullyReady"
      }
    }
  }

  /// The category a build of `service` is emitted in: `Deferred/` and the service's name, cut
  /// at ``nameLimit`` bytes (on a character's boundary).
  ///
  /// - Parameter service: The service, as `BuildRecord.service` names it.
  /// - Returns: The category.
  public static func category(of service: String) -> String {
    var name = ""
    var bytes = 0
    for character in service {
      bytes += character.utf8.count
      if bytes > nameLimit { break }
      name.append(character)
    }
    return servicePrefix + name
  }

  /// The service a category names, or `nil` for a category that is not a service's.
  ///
  /// - Parameter category: A signpost metric's category.
  /// - Returns: The service's name.
  public static func service(inCategory category: String) -> String? {
    guard category.hasPrefix(servicePrefix), category.count > servicePrefix.count else {
      return nil
    }
    return String(category.dropFirst(servicePrefix.count))
  }
}
