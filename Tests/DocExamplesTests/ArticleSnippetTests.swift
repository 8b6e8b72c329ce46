import Foundation
import Testing

/// Every block of Swift code in the DocC catalog is quoted from code that CI compiles: this
/// target's `DocExamplesTests.swift`, or the sample app's sources under `Examples/`.
@Suite struct ArticleSnippetTests {
  /// The repository's root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The catalogs' pages: the library's, DeferredTesting's, DeferredReports' and
  /// DeferredHistory's.
  static func pages() throws -> [URL] {
    try [
      "Sources/Deferred/Deferred.docc", "Sources/DeferredTesting/DeferredTesting.docc",
      "Sources/DeferredReports/DeferredReports.docc",
      "Sources/DeferredHistory/DeferredHistory.docc",
    ]
    .flatMap { path in
      try FileManager.default.contentsOfDirectory(
        at: root.appendingPathComponent(path), includingPropertiesForKeys: nil)
    }
    .filter { $0.pathExtension == "md" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  /// The lines of every compiled source an article may quote, each without its indentation.
  static func quotable() throws -> [[String]] {
    var files = [root.appendingPathComponent("Tests/DocExamplesTests/DocExamplesTests.swift")]
    let examples = root.appendingPathComponent("Examples")
    if let walker = FileManager.default.enumerator(at: examples, includingPropertiesForKeys: nil) {
      for case let url as URL in walker where url.pathExtension == "swift" {
        files.append(url)
      }
    }
    return try files.map { try lines(of: String(contentsOf: $0, encoding: .utf8)) }
  }

  /// The lines of `text`, each without its leading whitespace.
  static func lines(of text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0.drop { $0 == " " })
    }
  }

  /// The Swift code blocks of a page.
  static func swiftBlocks(in page: String) -> [[String]] {
    var blocks: [[String]] = []
    var current: [String]?
    for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line.hasPrefix("```swift") {
        current = []
      } else if current != nil, line.hasPrefix("```") {
        blocks.append(current ?? [])
        current = nil
      } else if current != nil {
        current?.append(String(line.drop { $0 == " " }))
      }
    }
    return blocks
  }

  /// Whether `block` appears in `lines` as consecutive lines.
  static func contains(_ lines: [String], _ block: [String]) -> Bool {
    guard !block.isEmpty, lines.count >= block.count else { return block.isEmpty }
    return (0...(lines.count - block.count)).contains { start in
      Array(lines[start..<start + block.count]) == block
    }
  }

  @Test func everySwiftBlockOfTheCatalogIsQuotedFromCompiledCode() throws {
    let sources = try Self.quotable()
    var checked = 0
    for page in try Self.pages() {
      for block in Self.swiftBlocks(in: try String(contentsOf: page, encoding: .utf8)) {
        checked += 1
        #expect(
          sources.contains { Self.contains($0, block) },
          "\(page.lastPathComponent): a block is not in DocExamplesTests.swift or Examples/:\n\(block.joined(separator: "\n"))"
        )
      }
    }
    #expect(checked >= 7)
  }

  /// The Swift blocks of a guide that follow a `<!-- quoted from ... -->` line.
  static func quotedBlocks(in page: String) -> [[String]] {
    let marked = page.components(separatedBy: "<!-- quoted from ").dropFirst()
    return marked.compactMap { part in
      let rest = part.drop { $0 != "\n" }.dropFirst()
      return rest.hasPrefix("```swift") ? swiftBlocks(in: String(rest)).first : nil
    }
  }

  @Test(arguments: ["AppIntegration.md", "Testing.md", "Comparison.md"])
  func theGuidesQuotedBlocksAreFoundInCompiledCode(guide: String) throws {
    let sources = try Self.quotable()
    let page = Self.root.appendingPathComponent("Docs").appendingPathComponent(guide)
    let blocks = Self.quotedBlocks(in: try String(contentsOf: page, encoding: .utf8))
    for block in blocks {
      #expect(
        sources.contains { Self.contains($0, block) },
        "\(guide): a quoted block is not in DocExamplesTests.swift or Examples/:\n\(block.joined(separator: "\n"))"
      )
    }
    #expect(!blocks.isEmpty)
  }

  /// The README and every guide under `Docs/`.
  static func guides() throws -> [URL] {
    let docs = root.appendingPathComponent("Docs")
    let pages = try FileManager.default.contentsOfDirectory(
      at: docs, includingPropertiesForKeys: nil
    )
    .filter { $0.pathExtension == "md" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
    return [root.appendingPathComponent("README.md")] + pages
  }

  /// The compiled sources a guide's block may be quoted from, each as its lines without their
  /// indentation: this target's, the library's tests' comparison app, the peers' code the
  /// benchmarks compile, and the sample app.
  static func guideSources() throws -> [(name: String, lines: [String])] {
    var files = [
      "Tests/DocExamplesTests/DocExamplesTests.swift",
      "Tests/DocExamplesTests/GuideExamplesTests.swift",
      "Tests/DeferredTests/ComparisonGuideTests.swift",
    ].map { root.appendingPathComponent($0) }
    for folder in [
      "Benchmarks/Sources/ComparisonSwinject", "Benchmarks/Sources/ComparisonDependencies",
      "Examples",
    ] {
      let url = root.appendingPathComponent(folder)
      if let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) {
        for case let file as URL in walker where file.pathExtension == "swift" {
          files.append(file)
        }
      }
    }
    return try files.map {
      (
        $0.path.replacingOccurrences(of: root.path + "/", with: ""),
        lines(of: try String(contentsOf: $0, encoding: .utf8))
      )
    }
  }

  /// Whether `block` is quoted from `source`: its paragraphs (split at blank lines) appear in
  /// it in order, each as consecutive lines; a leading paragraph of `import` lines only needs
  /// each import somewhere in the file. Between paragraphs the source may hold more (a
  /// namespace the page does not show, the checks of what a comment states).
  static func quotes(_ source: [String], _ block: [String]) -> Bool {
    var paragraphs = block.split(separator: "", omittingEmptySubsequences: true).map(Array.init)
    if let first = paragraphs.first, first.allSatisfy({ $0.hasPrefix("import ") }) {
      guard first.allSatisfy(source.contains) else { return false }
      paragraphs.removeFirst()
    }
    var start = 0
    for paragraph in paragraphs {
      guard source.count - start >= paragraph.count,
        let found = (start...(source.count - paragraph.count)).first(where: {
          Array(source[$0..<$0 + paragraph.count]) == paragraph
        })
      else { return false }
      start = found + paragraph.count
    }
    return true
  }

  /// What marks a block as checked elsewhere: the README's install lines, which
  /// `.ci/install-check` resolves from a new package, and code of a library CI cannot fetch.
  static let checkedElsewhere = ["<!-- install: ", "<!-- not compiled: "]

  /// The Swift blocks of a page, each with the line before its fence.
  static func markedBlocks(in page: String) -> [(mark: String, lines: [String])] {
    var blocks: [(String, [String])] = []
    var current: [String]?
    var previous = ""
    var mark = ""
    for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line.hasPrefix("```swift") {
        current = []
        mark = previous
      } else if current != nil, line.hasPrefix("```") {
        blocks.append((mark, current ?? []))
        current = nil
      } else if current != nil {
        current?.append(String(line.drop { $0 == " " }))
      }
      previous = String(line)
    }
    return blocks
  }

  @Test func everySwiftBlockOfTheReadmeAndTheGuidesIsCompiled() throws {
    let sources = try Self.guideSources()
    var compiled = 0
    var elsewhere: [String] = []
    for page in try Self.guides() {
      let name = page.lastPathComponent
      for (mark, block) in Self.markedBlocks(in: try String(contentsOf: page, encoding: .utf8)) {
        if Self.checkedElsewhere.contains(where: mark.hasPrefix) {
          elsewhere.append("\(name): \(mark)")
          continue
        }
        compiled += 1
        #expect(
          sources.contains { Self.quotes($0.lines, block) },
          "\(name): a block is not quoted from compiled code:\n\(block.joined(separator: "\n"))"
        )
      }
    }
    #expect(compiled == 38, "blocks compiled: \(compiled)")
    #expect(
      elsewhere == [
        "README.md: <!-- install: today -->", "README.md: <!-- install: release -->",
        "Comparison.md: <!-- not compiled: FactoryKit is not among the packages CI can fetch -->",
        "Comparison.md: <!-- not compiled: FactoryKit is not among the packages CI can fetch -->",
      ])
  }

  @Test func aQuotedBlockMayLeaveOutWhatSurroundsItsParagraphs() {
    let source = Self.lines(
      of:
        "import Deferred\nenum Space {\n  let a = 1\n  let b = a\n  #expect(b == 1)\n\n  let c = 2\n}"
    )
    #expect(
      Self.quotes(source, ["import Deferred", "", "let a = 1", "let b = a", "", "let c = 2"]))
    #expect(!Self.quotes(source, ["import Foundation", "", "let a = 1"]))
    #expect(!Self.quotes(source, ["let c = 2", "", "let a = 1"]))
    #expect(!Self.quotes(source, ["let a = 1", "let c = 2"]))
  }

  @Test func theCatalogHasItsArticles() throws {
    let names = Set(try Self.pages().map(\.lastPathComponent))
    for article in [
      "GettingStarted.md", "LaunchPhasesAndPriorities.md", "MainActorAndSwiftUI.md",
      "TestingWithDeferred.md", "ReadingALaunchReport.md", "LaunchAdvice.md",
      "ComingFromOtherContainers.md", "ServicesThatAreNotSendable.md",
    ] {
      #expect(names.contains(article), "\(article) is missing from the catalog")
    }
  }

  @Test func aBlockThatIsNotInTheSourcesIsFound() {
    let page = "Text.\n\n```swift\nlet x = 1\n  print(x)\n```\n"
    let blocks = Self.swiftBlocks(in: page)
    #expect(blocks == [["let x = 1", "print(x)"]])
    #expect(Self.contains(["a", "let x = 1", "print(x)", "b"], blocks[0]))
    #expect(!Self.contains(["let x = 1", "b", "print(x)"], blocks[0]))
  }
}
