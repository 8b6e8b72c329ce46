/// The theme engine: it renders every key's button image, at rest and pressed, into RGBA pixel
/// buffers. The first frame cannot be drawn without it: the demo's one critical service.
public final class ThemeEngine: Sendable {
  /// A key's images.
  public struct Button: Sendable, Hashable {
    /// The button without its label: what a terminal, too coarse for the label's strokes,
    /// draws under a text label.
    public let face: Bitmap
    /// As drawn at rest, with its label.
    public let normal: Bitmap
    /// As drawn while pressed, with its label.
    public let pressed: Bitmap
  }

  /// Every key's images, by key.
  public let buttons: [String: Button]
  /// The colour behind the buttons.
  public let background = Color(hex: 0x1C1C1E)

  /// Renders every button image: real rasterising, the pixel count in proportion to the
  /// workload.
  ///
  /// - Parameter workload: How much work to do.
  public init(workload: Workload) {
    let factor = workload.scale.squareRoot()
    let width = max(12, Int((60 * factor).rounded()))
    let height = max(8, Int((40 * factor).rounded()))
    var buttons: [String: Button] = [:]
    for key in Keypad.keys {
      let face = Self.face(key, width: width, height: height, pressed: false)
      let pressed = Self.face(key, width: width, height: height, pressed: true)
      buttons[key] = Button(
        face: face, normal: Self.labelled(face, key), pressed: Self.labelled(pressed, key))
    }
    self.buttons = buttons
  }

  /// The colour a key's label is drawn in.
  static func labelColor(for key: String) -> Color {
    Keypad.kind(of: key) == .function ? Color(hex: 0x1C1C1E) : Color(hex: 0xFFFFFF)
  }

  /// A soft shadow, the body with its gradient, and a gloss on its upper half.
  private static func face(_ key: String, width: Int, height: Int, pressed: Bool) -> Bitmap {
    var image = Bitmap(width: width, height: height)
    var (top, bottom): (Color, Color) =
      switch Keypad.kind(of: key) {
      case .digit: (Color(hex: 0x5A5A5C), Color(hex: 0x333335))
      case .operation: (Color(hex: 0xFFB340), Color(hex: 0xF08C00))
      case .function: (Color(hex: 0xDADAD8), Color(hex: 0xA5A5A5))
      }
    if pressed {
      top = top.mixed(with: Color(hex: 0xFFFFFF), 0.3)
      bottom = bottom.mixed(with: Color(hex: 0xFFFFFF), 0.3)
    }
    let w = Float(width)
    let h = Float(height)
    let inset = max(1, h * 0.06)
    let radius = h * 0.32
    image.fillRoundedRect(
      x: inset, y: inset * 1.6, width: w - inset * 2, height: h - inset * 2.2, radius: radius,
      top: Color(hex: 0, alpha: 0.45), bottom: Color(hex: 0, alpha: 0.6), softness: inset * 1.5)
    image.fillRoundedRect(
      x: inset, y: inset, width: w - inset * 2, height: h - inset * 2.4, radius: radius,
      top: top, bottom: bottom)
    image.fillRoundedRect(
      x: inset * 2, y: inset * 1.5, width: w - inset * 4, height: (h - inset * 2.4) * 0.45,
      radius: radius * 0.8, top: Color(hex: 0xFFFFFF, alpha: 0.22),
      bottom: Color(hex: 0xFFFFFF, alpha: 0.02))
    return image
  }

  /// The face with the key's label stroked on it, centred.
  private static func labelled(_ face: Bitmap, _ key: String) -> Bitmap {
    var image = face
    let w = Float(image.width)
    let h = Float(image.height)
    let (segments, aspect) = Glyphs.strokes(for: key)
    let glyphHeight = h * 0.36
    let glyphWidth = glyphHeight * aspect
    let originX = (w - glyphWidth) / 2
    let originY = (h - max(1, h * 0.06) * 0.4 - glyphHeight) / 2
    image.stroke(
      segments.map {
        (
          originX + $0.x0 * glyphWidth, originY + $0.y0 * glyphHeight,
          originX + $0.x1 * glyphWidth, originY + $0.y1 * glyphHeight
        )
      }, lineWidth: max(1, h * 0.07), color: labelColor(for: key))
    return image
  }
}
