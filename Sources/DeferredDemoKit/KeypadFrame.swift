/// The calculator's main screen, drawn for a terminal from the theme's button images: the
/// first frame.
///
/// Each button image is scaled down to a block of character cells, two pixels a cell: with
/// colour, an upper-half block (`▀`) in 24-bit colour; without, a shade (`░▒▓█`) for each
/// cell's brightness. The key's label sits in the middle.
public struct KeypadFrame: Sendable, Hashable {
  /// The frame, lines ending in newlines, ready to write to the terminal.
  public let text: String

  /// Cells a button is wide.
  static let buttonWidth = 9
  /// Pixel rows a button is tall, two a line.
  static let buttonPixelRows = 6

  /// Draws the screen.
  ///
  /// - Parameters:
  ///   - theme: The button images.
  ///   - settings: The configuration the status line shows.
  ///   - display: What the display shows.
  ///   - colored: Draw with 24-bit colour escapes, or with shades only.
  public init(theme: ThemeEngine, settings: Settings, display: String, colored: Bool) {
    let width = Keypad.rows[0].count * (Self.buttonWidth + 1) - 1
    var out = ""
    let reset = colored ? "\u{1B}[0m" : ""
    let panel = colored ? "\u{1B}[48;2;28;28;30m" : ""
    let bright = colored ? "\u{1B}[1;38;2;255;255;255m" : ""
    let dim = colored ? "\u{1B}[38;2;152;152;157m" : ""
    let pad = { (text: String) in String(repeating: " ", count: max(0, width - text.count)) }
    out += " \(panel)\(String(repeating: " ", count: width + 2))\(reset)\n"
    out += " \(panel) \(bright)\(pad(display))\(display) \(reset)\n"
    let status = settings.summary
    out += " \(panel) \(dim)\(pad(status))\(status) \(reset)\n"
    for row in Keypad.rows {
      let cells = row.map { key in Self.cells(of: theme.buttons[key]!.face, theme.background) }
      for line in 0..<(Self.buttonPixelRows / 2) {
        out += " \(panel) "
        for (column, key) in row.enumerated() {
          if column > 0 { out += colored ? " " : " " }
          for x in 0..<Self.buttonWidth {
            let upper = cells[column][line * 2][x]
            let lower = cells[column][line * 2 + 1][x]
            let isLabel = line == Self.buttonPixelRows / 4 && x == Self.buttonWidth / 2
            out += Self.cell(
              upper: upper, lower: lower, label: isLabel ? key : nil,
              labelColor: ThemeEngine.labelColor(for: key), colored: colored)
          }
          out += panel
        }
        out += " \(reset)\n"
      }
    }
    out += " \(panel)\(String(repeating: " ", count: width + 2))\(reset)\n"
    text = out
  }

  /// The image scaled down to the button's cells, composited over the background: rows of
  /// pixels, two a cell.
  private static func cells(of image: Bitmap, _ background: Color) -> [[Color]] {
    (0..<buttonPixelRows).map { row in
      let top = row * image.height / buttonPixelRows
      let bottom = (row + 1) * image.height / buttonPixelRows
      return (0..<buttonWidth).map { column in
        let left = column * image.width / buttonWidth
        let right = (column + 1) * image.width / buttonWidth
        let color = image.average(
          x: left, y: top, width: max(1, right - left), height: max(1, bottom - top))
        return background.mixed(
          with: Color(red: color.red, green: color.green, blue: color.blue), color.alpha)
      }
    }
  }

  private static func cell(
    upper: Color, lower: Color, label: String?, labelColor: Color, colored: Bool
  ) -> String {
    if colored {
      if let label {
        return "\(escape(38, labelColor))\(escape(48, upper.mixed(with: lower, 0.5)))\(label)"
      }
      return "\(escape(38, upper))\(escape(48, lower))▀"
    }
    if let label { return label }
    let brightness = (luma(upper) + luma(lower)) / 2
    switch brightness {
    case ..<0.16: return " "
    case ..<0.3: return "░"
    case ..<0.55: return "▒"
    case ..<0.75: return "▓"
    default: return "█"
    }
  }

  private static func luma(_ color: Color) -> Float {
    0.2126 * color.red + 0.7152 * color.green + 0.0722 * color.blue
  }

  private static func escape(_ code: Int, _ color: Color) -> String {
    func byte(_ value: Float) -> Int { Int(min(255, max(0, value * 255 + 0.5))) }
    return "\u{1B}[\(code);2;\(byte(color.red));\(byte(color.green));\(byte(color.blue))m"
  }
}
