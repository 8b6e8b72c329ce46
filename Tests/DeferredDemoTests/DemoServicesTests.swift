import DeferredDemoKit
import Testing

/// The demo's services do what the demo's output says they do.
@Suite struct DemoServicesTests {
  @Test func calculatorKeys() throws {
    let fixture = try DemoFixture()
    let storage = try DeferredDemoKit.Storage(directory: fixture.files.store)
    let calculator = try Calculator(storage: storage, config: CachedConfig(storage: storage))
    #expect(calculator.replayed > 0 && calculator.mismatches == 0)
    var edits: [Edit] = []
    for key in ["1", "2", "×", "3", "+", "4", "="] {
      if let edit = calculator.press(key) { edits.append(edit) }
    }
    #expect(edits.map(\.description) == ["12 × 3 + 4 = 40"])
    for key in ["÷", "3", "="] { calculator.press(key) }
    #expect(calculator.display == "13.33333333")  // ten significant digits, from the config
    for key in ["C", "7", ".", "5", "±", "%"] { calculator.press(key) }
    #expect(calculator.display == "-0.075")
  }

  @Test func conversionsReadTheUnitsTable() throws {
    let fixture = try DemoFixture()
    let conversions = try DeferredDemoKit.Conversions(tablePath: fixture.files.unitsTable)
    #expect(conversions.units.count >= 40)
    let kilometres = try #require(conversions.convert(26.2188, from: "mi", to: "km"))
    #expect(abs(kilometres - 42.195) < 0.001)
    let celsius = try #require(conversions.convert(212, from: "fahrenheit", to: "°C"))
    #expect(abs(celsius - 100) < 1e-9)
    #expect(conversions.convert(1, from: "mi", to: "kg") == nil)
  }

  @Test func storageCountsLaunchesOnDisk() throws {
    let fixture = try DemoFixture()
    let first = try DeferredDemoKit.Storage(directory: fixture.files.store)
    let second = try DeferredDemoKit.Storage(directory: fixture.files.store)
    #expect((first.launchCount, second.launchCount) == (1, 2))
    try second.write(Array("x".utf8), to: "note")
    #expect(try first.read("note") == Array("x".utf8))
  }

  @Test func keypadFrameShowsEveryKeyAndTheConfig() throws {
    let fixture = try DemoFixture()
    let storage = try DeferredDemoKit.Storage(directory: fixture.files.store)
    let frame = KeypadFrame(
      theme: ThemeEngine(workload: .tiny), settings: try CachedConfig(storage: storage).current,
      display: "0", colored: false)
    for key in Keypad.keys { #expect(frame.text.contains(key)) }
    #expect(frame.text.contains("DEG · 10 digits · config v3 (cached)"))
    #expect(!frame.text.contains("\u{1B}["))
  }

  @Test func themeRendersAntiAliasedButtons() throws {
    let theme = ThemeEngine(workload: Workload(scale: 0.1))
    let image = try #require(theme.buttons["="]?.normal)
    var alphas: Set<Float> = []
    for y in 0..<image.height {
      for x in 0..<image.width { alphas.insert(image.color(x: x, y: y).alpha) }
    }
    #expect(alphas.count > 10)  // edges are blended, not cut
    #expect(theme.buttons["="] != theme.buttons["+"])
    #expect(theme.buttons["="]?.normal != theme.buttons["="]?.face)  // the label is drawn
  }
}
