/// The data files the demo generates, the same on every run: a units table and a journal of
/// past calculations.
enum GeneratedData {
  /// Real units first, then each with SI prefixes, then regional variants up to `lines`.
  static func unitsTable(lines: Int) -> [UInt8] {
    let base: [(String, String, String, Double, Double, String)] = [
      ("length", "metre", "m", 1, 0, "meter,meters,metres"),
      ("length", "kilometre", "km", 1_000, 0, "kilometer,kilometers,kilometres"),
      ("length", "mile", "mi", 1_609.344, 0, "miles"),
      ("length", "foot", "ft", 0.3048, 0, "feet"),
      ("length", "inch", "in", 0.0254, 0, "inches"),
      ("length", "nautical mile", "nmi", 1_852, 0, "nautical miles"),
      ("mass", "kilogram", "kg", 1, 0, "kilograms"),
      ("mass", "pound", "lb", 0.453_592_37, 0, "pounds,lbs"),
      ("mass", "ounce", "oz", 0.028_349_523_125, 0, "ounces"),
      ("temperature", "kelvin", "K", 1, 0, "kelvins"),
      ("temperature", "degree Celsius", "°C", 1, 273.15, "celsius,C"),
      ("temperature", "degree Fahrenheit", "°F", 5.0 / 9, 459.67 * 5 / 9, "fahrenheit,F"),
      ("volume", "litre", "L", 1, 0, "liter,liters,litres"),
      ("volume", "US gallon", "gal", 3.785_411_784, 0, "gallons"),
      ("speed", "metre per second", "m/s", 1, 0, "mps"),
      ("speed", "kilometre per hour", "km/h", 1 / 3.6, 0, "kph"),
      ("speed", "mile per hour", "mph", 0.447_04, 0, "miles per hour"),
      ("energy", "joule", "J", 1, 0, "joules"),
      ("energy", "kilocalorie", "kcal", 4_184, 0, "calories,Cal"),
      ("pressure", "pascal", "Pa", 1, 0, "pascals"),
      ("pressure", "bar", "bar", 100_000, 0, "bars"),
      ("time", "second", "s", 1, 0, "seconds,sec"),
      ("time", "hour", "h", 3_600, 0, "hours,hr"),
    ]
    let prefixes: [(String, String, Double)] = [
      ("quecto", "q", 1e-30), ("ronto", "r", 1e-27), ("yocto", "y", 1e-24),
      ("zepto", "z", 1e-21), ("atto", "a", 1e-18), ("femto", "f", 1e-15), ("pico", "p", 1e-12),
      ("nano", "n", 1e-9), ("micro", "µ", 1e-6), ("milli", "m", 1e-3), ("centi", "c", 1e-2),
      ("deci", "d", 1e-1), ("deca", "da", 1e1), ("hecto", "h", 1e2), ("kilo", "k", 1e3),
      ("mega", "M", 1e6), ("giga", "G", 1e9), ("tera", "T", 1e12), ("peta", "P", 1e15),
      ("exa", "E", 1e18), ("zetta", "Z", 1e21), ("yotta", "Y", 1e24), ("ronna", "R", 1e27),
      ("quetta", "Q", 1e30),
    ]
    var out = ByteWriter(capacity: lines * 80)
    out.append("# category\tname\tsymbol\tfactor\toffset\taliases\n")
    var count = 0
    for row in base {
      out.append("\(row.0)\t\(row.1)\t\(row.2)\t\(row.3)\t\(row.4)\t\(row.5)\n")
      count += 1
    }
    for (name, symbol, scale) in prefixes {
      for row in base where row.4 == 0 && row.2.count <= 2 {
        out.append("\(row.0)\t\(name)\(row.1)\t\(symbol)·\(row.2)\t\(row.3 * scale)\t0")
        out.append("\t\(name)-\(row.1)\n")
        count += 1
      }
    }
    // Regional variants: the same units, each a little off.
    var random = SplitMix(seed: 3)
    var region = 0
    let pieces = base.map { row in
      (
        name: Array("\(row.0)\t\(row.1) (region ".utf8), symbol: Array(")\t\(row.2)#".utf8),
        offset: row.4, alias: Array("\t\(row.1)-r".utf8), symbolAlias: Array(",\(row.2)r".utf8)
      )
    }
    while count < lines {
      let row = base[region % base.count]
      let piece = pieces[region % base.count]
      region += 1
      out.append(piece.name)
      out.append(region)
      out.append(piece.symbol)
      out.append(region)
      out.append(UInt8(ascii: "\t"))
      out.append(row.3 * (1 + (random.unit() - 0.5) * 1e-4), places: 9)
      out.append(UInt8(ascii: "\t"))
      out.append(piece.offset, places: 4)
      out.append(piece.alias)
      out.append(region)
      out.append(piece.symbolAlias)
      out.append(region)
      out.append(UInt8(ascii: "\n"))
      count += 1
    }
    return out.bytes
  }

  /// Past calculations, one a line: `12.5 × 3 + 4 = 41.5`.
  static func journal(entries: Int) -> [UInt8] {
    var random = SplitMix(seed: 5)
    let operators = ["+", "−", "×", "÷"]
    var out = ByteWriter(capacity: entries * 40)
    var tokens: [String] = []
    var values: [Double] = []
    for _ in 0..<entries {
      tokens.removeAll(keepingCapacity: true)
      values.removeAll(keepingCapacity: true)
      let terms = 2 + Int(random.next() % 4)
      for term in 0..<terms {
        if term > 0 {
          let op = operators[Int(random.next() % 4)]
          tokens.append(op)
          out.append(" ")
          out.append(op)
          out.append(" ")
        }
        let whole = Int(1 + random.next() % 999)
        out.append(whole)
        if random.next() % 3 == 0 {
          // Two decimals: the text parses to exactly this value.
          let hundredths = Int(random.next() % 100)
          out.append(".")
          if hundredths < 10 { out.append("0") }
          out.append(hundredths)
          values.append(Double(whole * 100 + hundredths) / 100)
        } else {
          values.append(Double(whole))
        }
        tokens.append("")
      }
      var value = values[0]
      var sum = 0.0
      for index in 1..<values.count {
        switch tokens[index * 2 - 1] {
        case "×": value *= values[index]
        case "÷": value /= values[index]
        case "+":
          sum += value
          value = values[index]
        default:
          sum += value
          value = -values[index]
        }
      }
      out.append(" = ")
      out.append(String(sum + value))
      out.append("\n")
    }
    return out.bytes
  }
}
