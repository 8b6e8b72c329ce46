/// The quality of service of the background queues that build deferred services.
///
/// Named so that it never meets Foundation's `QualityOfService` in a file that imports both
/// (every app file does: UIKit and SwiftUI re-export Foundation). Dispatch's classes of the
/// same names are what it maps to.
public enum BuildQoS: String, Sendable, Hashable, CaseIterable, Codable,
  CustomStringConvertible
{
  /// Work the user is waiting for.
  case userInitiated
  /// Work the user is not waiting for but will see the result of.
  case utility
  /// Maintenance work the user does not see.
  case background

  /// The name of the class, as shown in reports.
  public var description: String { rawValue }
}
