/// How a build came about, in a ``BuildRecord``.
public enum BuildTrigger: String, Sendable, Hashable, CaseIterable, Codable,
  CustomStringConvertible
{
  /// Built by ``Container/launch(_:)``, before the first frame: a critical service, or one a
  /// critical service needs.
  case launch
  /// Built by a deferred job, after the first frame.
  case scheduled
  /// Built because something resolved it.
  case onDemand

  /// The trigger's name, as reports show it: `launch`, `scheduled` or `onDemand`.
  public var description: String { rawValue }
}
