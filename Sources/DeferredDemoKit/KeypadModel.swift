import Deferred

/// The keypad's view model, isolated to the main actor as a view model in a Swift 6 app is:
/// the display's text and what each key says to VoiceOver.
///
/// Deferred builds it on the main-thread lane after the first frame (in the eager app, before
/// it, on the main actor): the first frame is drawn from the theme alone.
@MainActor public final class KeypadModel {
  /// The keys, as the keypad lays them out.
  public static let keys = [
    "7", "8", "9", "÷", "4", "5", "6", "×", "1", "2", "3", "−", "0", ".", "=", "+",
  ]

  /// What the display shows.
  public private(set) var display: String
  /// What each key says to VoiceOver.
  public let spokenLabels: [String: String]
  private let calculator: Calculator

  /// Makes the model from the calculator's state.
  ///
  /// - Parameter calculator: The calculator whose display it shows.
  public init(calculator: Calculator) {
    MainActor.assertIsolated()
    self.calculator = calculator
    display = calculator.display
    let words = [
      "0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
      "7": "seven", "8": "eight", "9": "nine", ".": "point", "=": "equals", "+": "plus",
      "−": "minus", "×": "times", "÷": "divided by",
    ]
    var labels: [String: String] = [:]
    for key in Self.keys { labels[key] = words[key] ?? key }
    spokenLabels = labels
  }

  /// Shows what the calculator displays now.
  public func refresh() {
    display = calculator.display
  }
}
