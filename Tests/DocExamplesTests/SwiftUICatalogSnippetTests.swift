import Foundation
import Testing

/// Every block of Swift code in the DeferredSwiftUI catalog is quoted from code that CI
/// compiles: the sample app's sources under `Examples/`, which the Apple SDK check compiles for
/// iOS and macOS (the catalog's views exist only where SwiftUI does).
@Suite struct SwiftUICatalogSnippetTests {
  static func pages() throws -> [URL] {
    let catalog = ArticleSnippetTests.root
      .appendingPathComponent("Sources/DeferredSwiftUI/DeferredSwiftUI.docc")
    return try FileManager.default.contentsOfDirectory(
      at: catalog, includingPropertiesForKeys: nil
    )
    .filter { $0.pathExtension == "md" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  @Test func everySwiftBlockOfTheCatalogIsQuotedFromCompiledCode() throws {
    let sources = try ArticleSnippetTests.quotable()
    var checked = 0
    for page in try Self.pages() {
      let text = try String(contentsOf: page, encoding: .utf8)
      for block in ArticleSnippetTests.swiftBlocks(in: text) {
        checked += 1
        #expect(
          sources.contains { ArticleSnippetTests.contains($0, block) },
          "\(page.lastPathComponent): a block is not in Examples/:\n\(block.joined(separator: "\n"))"
        )
      }
    }
    #expect(checked >= 2)
  }

  @Test func theCatalogHasItsLandingPageAndLifecycleArticle() throws {
    let names = Set(try Self.pages().map(\.lastPathComponent))
    #expect(names == ["DeferredSwiftUI.md", "AppLifecycle.md"])
  }
}
