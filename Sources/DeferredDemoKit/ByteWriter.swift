/// Builds a file's bytes without going through `String` for every number.
struct ByteWriter {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int) {
    bytes.reserveCapacity(capacity)
  }

  mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  mutating func append(_ piece: [UInt8]) {
    bytes.append(contentsOf: piece)
  }

  mutating func append(_ byte: UInt8) {
    bytes.append(byte)
  }

  mutating func append(_ number: Int) {
    if number < 0 { bytes.append(UInt8(ascii: "-")) }
    var rest = number.magnitude
    var divisor: UInt = 1
    while divisor <= rest / 10 { divisor *= 10 }
    repeat {
      bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    } while divisor > 0
  }

  /// A number with a fixed count of decimals.
  mutating func append(_ number: Double, places: Int) {
    var scale = 1
    for _ in 0..<places { scale *= 10 }
    let scaled = Int((abs(number) * Double(scale)).rounded())
    if number < 0 { bytes.append(UInt8(ascii: "-")) }
    append(scaled / scale)
    bytes.append(UInt8(ascii: "."))
    var digits = scaled % scale
    var divisor = scale / 10
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(digits / divisor))
      digits %= divisor
      divisor /= 10
    }
  }
}
