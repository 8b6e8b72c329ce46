/// A colour with straight (not premultiplied) alpha, each channel from 0 to 1.
public struct Color: Sendable, Hashable {
  /// Red.
  public var red: Float
  /// Green.
  public var green: Float
  /// Blue.
  public var blue: Float
  /// Opacity.
  public var alpha: Float

  /// Creates a colour.
  ///
  /// - Parameters:
  ///   - red: Red, 0 to 1.
  ///   - green: Green, 0 to 1.
  ///   - blue: Blue, 0 to 1.
  ///   - alpha: Opacity, 0 to 1.
  public init(red: Float, green: Float, blue: Float, alpha: Float = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// A colour from a 24-bit hex value such as `0xFF9F0A`.
  init(hex: UInt32, alpha: Float = 1) {
    self.init(
      red: Float((hex >> 16) & 0xFF) / 255, green: Float((hex >> 8) & 0xFF) / 255,
      blue: Float(hex & 0xFF) / 255, alpha: alpha)
  }

  /// The colour `amount` of the way to `other`.
  func mixed(with other: Color, _ amount: Float) -> Color {
    Color(
      red: red + (other.red - red) * amount, green: green + (other.green - green) * amount,
      blue: blue + (other.blue - blue) * amount, alpha: alpha + (other.alpha - alpha) * amount)
  }
}
