import Combine

/// The keypad's view model: it lives on the main actor, and is built there, in its turn of the
/// main queue after the first frame.
@MainActor
public final class KeypadModel: ObservableObject {
  /// What the user typed.
  @Published public var input = ""
  /// The last result.
  @Published public private(set) var result: Double?

  private let calculator: Calculator
  private let sync: SyncService

  /// Makes the model.
  ///
  /// - Parameters:
  ///   - calculator: Evaluates what the user types.
  ///   - sync: Keeps every calculation.
  public init(calculator: Calculator, sync: SyncService) {
    self.calculator = calculator
    self.sync = sync
  }

  /// Evaluates the input and keeps the calculation.
  public func evaluate() {
    result = calculator.evaluate(input)
    sync.push(input)
  }
}
