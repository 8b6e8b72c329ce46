/// The launch histograms of a MetricKit payload (`MXAppLaunchMetric`), under the keys its JSON
/// gives them.
public enum FieldLaunchMetric: String, Sendable, Hashable, CaseIterable, Codable {
  /// Time to the first draw (`histogrammedTimeToFirstDraw`): a launch from the tap to the
  /// first frame.
  case timeToFirstDraw
  /// Time to the first draw of launches the system prewarmed
  /// (`histogrammedOptimizedTimeToFirstDraw`).
  case optimizedTimeToFirstDraw
  /// Resuming from the background (`histogrammedApplicationResumeTime`).
  case resume
  /// The launch including its extended-launch tasks (`histogrammedExtendedLaunch`): with
  /// ``FieldMeasurement``, up to the moment the app is usable.
  case extendedLaunch

  /// The keys the payload's JSON gives the histogram under (the first is what MetricKit
  /// writes; the others are other spellings seen in payloads).
  var jsonKeys: [String] {
    switch self {
    case .timeToFirstDraw: ["histogrammedTimeToFirstDrawKey", "histogrammedTimeToFirstDraw"]
    case .optimizedTimeToFirstDraw:
      ["histogrammedOptimizedTimeToFirstDrawKey", "histogrammedOptimizedTimeToFirstDraw"]
    case .resume: ["histogrammedResumeTime", "histogrammedApplicationResumeTime"]
    case .extendedLaunch: ["histogrammedExtendedLaunch", "histogrammedExtendedLaunchKey"]
    }
  }

  /// A readable name: "time to first draw".
  public var title: String {
    switch self {
    case .timeToFirstDraw: "time to first draw"
    case .optimizedTimeToFirstDraw: "optimized time to first draw"
    case .resume: "resume"
    case .extendedLaunch: "extended launch"
    }
  }
}
