import Foundation
import Testing

/// Every block of Swift code in the DocC catalog is quoted from code that CI compiles: this
/// target's `DocExamplesTests.swift`, or the sample app's sources under `Examples/`.
@Suite struct ArticleSnippetTests {
  /// The repository's root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The catalog's pages.
  static func pages() throws -> [URL] {
    let catalog = root.appendingPathComponent("Sources/Deferred/Deferred.docc")
    return try FileManager.default.contentsOfDirectory(
      at: catalog, includingPropertiesForKeys: nil
    )
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

  @Test func theCatalogHasItsArticles() throws {
    let names = Set(try Self.pages().map(\.lastPathComponent))
    for article in [
      "GettingStarted.md", "LaunchPhasesAndPriorities.md", "MainActorAndSwiftUI.md",
      "TestingWithDeferred.md", "ReadingALaunchReport.md", "LaunchHistoryAndAdvice.md",
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
