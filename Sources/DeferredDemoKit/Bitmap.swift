/// An RGBA image in a `[UInt8]` buffer, 8 bits a channel, rows top to bottom, with the
/// anti-aliased drawing the theme engine needs: rounded rectangles with gradients, soft
/// shadows and stroked glyphs.
public struct Bitmap: Sendable, Hashable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `width * height * 4` bytes: red, green, blue, alpha.
  public private(set) var pixels: [UInt8]

  /// Creates a transparent image.
  ///
  /// - Parameters:
  ///   - width: Width in pixels.
  ///   - height: Height in pixels.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
    pixels = [UInt8](repeating: 0, count: width * height * 4)
  }

  /// The colour of a pixel.
  ///
  /// - Parameters:
  ///   - x: Column, from the left.
  ///   - y: Row, from the top.
  /// - Returns: The colour.
  public func color(x: Int, y: Int) -> Color {
    let index = (y * width + x) * 4
    return Color(
      red: Float(pixels[index]) / 255, green: Float(pixels[index + 1]) / 255,
      blue: Float(pixels[index + 2]) / 255, alpha: Float(pixels[index + 3]) / 255)
  }

  /// The average colour of a block of pixels, for scaling the image down.
  func average(x: Int, y: Int, width blockWidth: Int, height blockHeight: Int) -> Color {
    var sum = (Float(0), Float(0), Float(0), Float(0))
    var count: Float = 0
    for row in max(0, y)..<min(height, y + blockHeight) {
      for column in max(0, x)..<min(width, x + blockWidth) {
        let index = (row * width + column) * 4
        sum.0 += Float(pixels[index])
        sum.1 += Float(pixels[index + 1])
        sum.2 += Float(pixels[index + 2])
        sum.3 += Float(pixels[index + 3])
        count += 1
      }
    }
    guard count > 0 else { return Color(red: 0, green: 0, blue: 0, alpha: 0) }
    return Color(
      red: sum.0 / count / 255, green: sum.1 / count / 255, blue: sum.2 / count / 255,
      alpha: sum.3 / count / 255)
  }

  /// Fills a rounded rectangle with a vertical gradient, anti-aliased from its exact signed
  /// distance at each pixel's centre.
  mutating func fillRoundedRect(
    x: Float, y: Float, width rectWidth: Float, height rectHeight: Float, radius: Float,
    top: Color, bottom: Color, softness: Float = 1
  ) {
    let centreX = x + rectWidth / 2
    let centreY = y + rectHeight / 2
    let halfWidth = rectWidth / 2 - radius
    let halfHeight = rectHeight / 2 - radius
    let reach = softness + 1
    let rows = clampedRange(y - reach, y + rectHeight + reach, height)
    let columns = clampedRange(x - reach, x + rectWidth + reach, width)
    for row in rows {
      let pixelY = Float(row) + 0.5
      let along = min(1, max(0, (pixelY - y) / rectHeight))
      let shade = top.mixed(with: bottom, along)
      let dy = max(abs(pixelY - centreY) - halfHeight, 0)
      for column in columns {
        let dx = max(abs(Float(column) + 0.5 - centreX) - halfWidth, 0)
        let distance = (dx * dx + dy * dy).squareRoot() - radius
        let coverage = min(1, max(0, 0.5 - distance / softness))
        if coverage > 0 { blend(column, row, shade, coverage) }
      }
    }
  }

  /// Strokes line segments with round caps, anti-aliased: glyphs are made of them.
  mutating func stroke(
    _ segments: [(x0: Float, y0: Float, x1: Float, y1: Float)], lineWidth: Float, color: Color
  ) {
    guard !segments.isEmpty else { return }
    let half = lineWidth / 2
    let minX = segments.map { min($0.x0, $0.x1) }.min()! - half - 1
    let maxX = segments.map { max($0.x0, $0.x1) }.max()! + half + 1
    let minY = segments.map { min($0.y0, $0.y1) }.min()! - half - 1
    let maxY = segments.map { max($0.y0, $0.y1) }.max()! + half + 1
    for row in clampedRange(minY, maxY, height) {
      let pixelY = Float(row) + 0.5
      for column in clampedRange(minX, maxX, width) {
        let pixelX = Float(column) + 0.5
        var nearest = Float.greatestFiniteMagnitude
        for segment in segments {
          nearest = min(nearest, distanceSquared(pixelX, pixelY, segment))
        }
        let coverage = min(1, max(0, half + 0.5 - nearest.squareRoot()))
        if coverage > 0 { blend(column, row, color, coverage) }
      }
    }
  }

  /// Draws `color` over a pixel with `coverage` (source over).
  private mutating func blend(_ column: Int, _ row: Int, _ color: Color, _ coverage: Float) {
    let index = (row * width + column) * 4
    let sourceAlpha = color.alpha * coverage
    let destinationAlpha = Float(pixels[index + 3]) / 255
    let outAlpha = sourceAlpha + destinationAlpha * (1 - sourceAlpha)
    guard outAlpha > 0 else { return }
    func channel(_ source: Float, _ offset: Int) -> UInt8 {
      let destination = Float(pixels[index + offset]) / 255
      let value =
        (source * sourceAlpha + destination * destinationAlpha * (1 - sourceAlpha))
        / outAlpha
      return UInt8(min(255, max(0, value * 255 + 0.5)))
    }
    pixels[index] = channel(color.red, 0)
    pixels[index + 1] = channel(color.green, 1)
    pixels[index + 2] = channel(color.blue, 2)
    pixels[index + 3] = UInt8(min(255, outAlpha * 255 + 0.5))
  }
}

/// The pixel indices from `low` to `high`, within `0..<limit`.
private func clampedRange(_ low: Float, _ high: Float, _ limit: Int) -> Range<Int> {
  let start = max(0, Int(low.rounded(.down)))
  let end = min(limit, Int(high.rounded(.up)))
  return start..<max(start, end)
}

/// The squared distance from a point to a segment.
private func distanceSquared(
  _ x: Float, _ y: Float, _ segment: (x0: Float, y0: Float, x1: Float, y1: Float)
) -> Float {
  let dx = segment.x1 - segment.x0
  let dy = segment.y1 - segment.y0
  let length = dx * dx + dy * dy
  var t: Float = 0
  if length > 0 { t = min(1, max(0, ((x - segment.x0) * dx + (y - segment.y0) * dy) / length)) }
  let nearX = segment.x0 + t * dx - x
  let nearY = segment.y0 + t * dy - y
  return nearX * nearX + nearY * nearY
}
