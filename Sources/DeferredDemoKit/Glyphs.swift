/// The strokes of each key's label, in a unit box (x right, y down): the theme engine strokes
/// them into the button images.
enum Glyphs {
  typealias Segment = (x0: Float, y0: Float, x1: Float, y1: Float)

  /// The label's strokes, and its width relative to its height.
  static func strokes(for key: String) -> (segments: [Segment], aspect: Float) {
    if let digit = Int(key), let lit = sevenSegment[digit] {
      return (lit.map { segments[$0] }, 0.55)
    }
    switch key {
    case "+": return ([(0.5, 0.1, 0.5, 0.9), (0.1, 0.5, 0.9, 0.5)], 1)
    case "−": return ([(0.1, 0.5, 0.9, 0.5)], 1)
    case "×": return ([(0.2, 0.2, 0.8, 0.8), (0.8, 0.2, 0.2, 0.8)], 1)
    case "÷": return ([(0.1, 0.5, 0.9, 0.5), (0.5, 0.18, 0.5, 0.18), (0.5, 0.82, 0.5, 0.82)], 1)
    case "=": return ([(0.12, 0.35, 0.88, 0.35), (0.12, 0.65, 0.88, 0.65)], 1)
    case ".": return ([(0.5, 0.9, 0.5, 0.9)], 0.3)
    case "C": return ([(1, 0, 0, 0), (0, 0, 0, 1), (0, 1, 1, 1)], 0.6)
    case "±":
      return ([(0.5, 0.05, 0.5, 0.55), (0.2, 0.3, 0.8, 0.3), (0.2, 0.85, 0.8, 0.85)], 0.8)
    case "%": return ([(0.85, 0.1, 0.15, 0.9), (0.2, 0.2, 0.2, 0.2), (0.8, 0.8, 0.8, 0.8)], 0.8)
    case "⌫":
      return (
        [
          (0, 0.5, 0.35, 0.15), (0.35, 0.15, 1, 0.15), (1, 0.15, 1, 0.85), (1, 0.85, 0.35, 0.85),
          (0.35, 0.85, 0, 0.5), (0.52, 0.35, 0.78, 0.65), (0.78, 0.35, 0.52, 0.65),
        ], 1.3
      )
    default: return ([], 1)
    }
  }

  /// The seven segments of a digit: top, top right, bottom right, bottom, bottom left, top
  /// left, middle.
  private static let segments: [Segment] = [
    (0, 0, 1, 0), (1, 0, 1, 0.5), (1, 0.5, 1, 1), (0, 1, 1, 1), (0, 0.5, 0, 1), (0, 0, 0, 0.5),
    (0, 0.5, 1, 0.5),
  ]

  /// Which segments each digit lights.
  private static let sevenSegment: [Int: [Int]] = [
    0: [0, 1, 2, 3, 4, 5], 1: [1, 2], 2: [0, 1, 6, 4, 3], 3: [0, 1, 6, 2, 3], 4: [5, 6, 1, 2],
    5: [0, 5, 6, 2, 3], 6: [0, 5, 6, 4, 2, 3], 7: [0, 1, 2], 8: [0, 1, 2, 3, 4, 5, 6],
    9: [0, 1, 2, 3, 5, 6],
  ]
}
