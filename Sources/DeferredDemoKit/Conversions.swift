/// The units table behind the conversions screen, parsed from the tab-separated data file the
/// demo installs: tens of thousands of lines (`category`, `name`, `symbol`, `factor`,
/// `offset`, `aliases`), indexed by symbol, name and alias.
public final class Conversions: Sendable {
  /// One unit: `value × factor + offset` is the value in its category's base unit.
  public struct Unit: Sendable, Hashable {
    /// Such as `length`.
    public let category: String
    /// Such as `mile`.
    public let name: String
    /// Such as `mi`.
    public let symbol: String
    /// What one of it is in the base unit.
    public let factor: Double
    /// What to add after scaling (temperatures).
    public let offset: Double
  }

  /// Every unit, in the table's order.
  public let units: [Unit]
  private let index: [String: Int]

  /// Reads and parses the units table.
  ///
  /// - Parameter path: The table's file.
  /// - Throws: ``DemoError`` if it cannot be read, or a line is malformed.
  public init(tablePath path: String) throws(DemoError) {
    let bytes = try Files.read(path)
    var units: [Unit] = []
    var index: [String: Int] = [:]
    units.reserveCapacity(bytes.count / 48)
    index.reserveCapacity(bytes.count / 16)
    var lineNumber = 0
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      lineNumber += 1
      if line.first == UInt8(ascii: "#") { continue }
      let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
      guard fields.count == 6,
        let factor = Double(String(decoding: fields[3], as: UTF8.self)),
        let offset = Double(String(decoding: fields[4], as: UTF8.self))
      else { throw DemoError("\(path):\(lineNumber): malformed unit") }
      let unit = Unit(
        category: String(decoding: fields[0], as: UTF8.self),
        name: String(decoding: fields[1], as: UTF8.self),
        symbol: String(decoding: fields[2], as: UTF8.self), factor: factor, offset: offset)
      let position = units.count
      units.append(unit)
      let lowercased = unit.name.lowercased()
      if index[unit.symbol] == nil { index[unit.symbol] = position }
      if index[lowercased] == nil { index[lowercased] = position }
      for alias in fields[5].split(separator: UInt8(ascii: ",")) {
        let key = String(decoding: alias, as: UTF8.self)
        if index[key] == nil { index[key] = position }
      }
    }
    self.units = units
    self.index = index
  }

  /// The unit with this symbol, name or alias.
  ///
  /// - Parameter name: A symbol (`mi`), name (`mile`) or alias (`miles`).
  /// - Returns: The unit, if the table has it.
  public func unit(_ name: String) -> Unit? {
    (index[name] ?? index[name.lowercased()]).map { units[$0] }
  }

  /// Converts a value between two units of one category.
  ///
  /// - Parameters:
  ///   - value: The value in `from`.
  ///   - from: A symbol, name or alias.
  ///   - to: A symbol, name or alias of the same category.
  /// - Returns: The value in `to`, or `nil` if a unit is unknown or the categories differ.
  public func convert(_ value: Double, from: String, to: String) -> Double? {
    guard let source = unit(from), let target = unit(to), source.category == target.category
    else { return nil }
    return (value * source.factor + source.offset - target.offset) / target.factor
  }
}
