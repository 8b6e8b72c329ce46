import DeferredDemoKit
import Testing

/// The demo's command line: what it accepts, and the typed error, with the usage, for what it
/// does not.
@Suite struct DemoArgumentsTests {
  @Test func noArgumentsIsTheTour() throws {
    #expect(try Command.parse([]) == .tour)
    #expect(try Command.parse(["tour"]) == .tour)
    #expect(throws: UsageError.self) { try Command.parse(["tour", "--runs", "2"]) }
    #expect(try Command.parse(["help"]) == .help)
  }

  @Test func launchOptions() throws {
    guard
      case .launch(let options) = try Command.parse([
        "launch", "--mode", "deferred", "--json", "--trace", "t.json", "--svg", "t.svg",
        "--slowdown", "2.5",
      ])
    else {
      Issue.record("not a launch")
      return
    }
    #expect(options.mode == .deferred)
    #expect(options.json)
    #expect(options.tracePath == "t.json")
    #expect(options.svgPath == "t.svg")
    #expect(options.slowdown == 2.5)
    #expect(options.screen == nil)
    guard case .launch(let eager) = try Command.parse(["launch", "--mode", "eager"]) else {
      Issue.record("not a launch")
      return
    }
    #expect(eager.mode == .eager && !eager.json && eager.slowdown == 1)
  }

  @Test func compareOptions() throws {
    #expect(try Command.parse(["compare"]) == .compare(CompareOptions()))
    var options = CompareOptions()
    options.runs = 3
    options.json = true
    #expect(try Command.parse(["compare", "--runs", "3", "--json"]) == .compare(options))
  }

  @Test func historyOptions() throws {
    #expect(try Command.parse(["history"]) == .history(HistoryOptions()))
    var options = HistoryOptions()
    options.runs = 6
    options.workers = 3
    options.historyDirectory = "h"
    options.slowed = ["TapeIndex": 3]
    #expect(
      try Command.parse([
        "history", "--runs", "6", "--workers", "3", "--history-dir", "h", "--slow", "TapeIndex=3",
      ]) == .history(options))
    guard
      case .launch(let launch) = try Command.parse([
        "launch", "--mode", "deferred", "--history", "h", "--workers", "2", "--slow",
        "Suggestions=1.5",
      ])
    else {
      Issue.record("not a launch")
      return
    }
    #expect(launch.historyDirectory == "h" && launch.workers == 2)
    #expect(launch.slowed == ["Suggestions": 1.5])
  }

  @Test(arguments: [
    (["launch"], "launch needs --mode eager or --mode deferred"),
    (["launch", "--mode"], "--mode needs a value"),
    (["launch", "--mode", "lazy"], "--mode must be eager or deferred, not \"lazy\""),
    (["launch", "--mode", "eager", "--slowdown", "0.5"], "--slowdown must be a number from 1"),
    (["launch", "--mode", "eager", "--slowdown", "nan"], "--slowdown must be a number from 1"),
    (["launch", "--mode", "eager", "extra"], "unexpected argument \"extra\" for launch"),
    (["launch", "--mode", "eager", "--screen", "tv"], "--screen must be stdout, stderr or none"),
    (["compare", "--runs", "0"], "--runs must be a whole number from 1 to 1000"),
    (["compare", "--runs", "ten"], "--runs must be a whole number from 1 to 1000"),
    (["compare", "--json", "--json"], "--json is given twice"),
    (["compare", "--mode", "eager"], "unknown option --mode for compare"),
    (["history", "--runs", "0"], "--runs must be a whole number from 1 to 100"),
    (["history", "--workers", "0"], "--workers must be a whole number from 1 to 64"),
    (["history", "--slow", "TapeIndex"], "--slow must be SERVICE=X"),
    (["history", "--slow", "TapeIndex=0.5"], "--slow must be SERVICE=X"),
    (["history", "--slow", "Storage=2"], "--slow cannot scale Storage"),
    (["history", "--json"], "unknown option --json for history"),
    (["frobnicate"], "unknown command \"frobnicate\""),
    (["help", "me"], "unexpected argument \"me\""),
  ])
  func badArgumentsAreATypedErrorWithTheUsage(arguments: [String], message: String) {
    let error = #expect(throws: UsageError.self) { try Command.parse(arguments) }
    #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "none")")
    #expect(error?.description.contains("usage: DeferredDemo") == true)
  }
}
