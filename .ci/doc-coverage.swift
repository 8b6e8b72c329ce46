// Every public symbol a target declares has a doc comment: reads the symbol graphs given as
// arguments (as `swift build -Xswiftc -emit-symbol-graph` writes them) and lists each public or
// open symbol, declared in this package's sources, that has none. Exits 1 when there is one.
//
//   swift .ci/doc-coverage.swift Deferred.symbols.json …
import Foundation

struct SymbolGraph: Decodable {
  struct Symbol: Decodable {
    struct Kind: Decodable { let identifier: String }
    struct Location: Decodable { let uri: String }
    struct DocComment: Decodable {}
    let kind: Kind
    let pathComponents: [String]
    let accessLevel: String
    let location: Location?
    let docComment: DocComment?
  }
  let symbols: [Symbol]
}

var missing: [String] = []
var checked = 0
for path in CommandLine.arguments.dropFirst() {
  let graph = try JSONDecoder().decode(
    SymbolGraph.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
  for symbol in graph.symbols where ["public", "open"].contains(symbol.accessLevel) {
    // Symbols without a location here are synthesized or inherited from another module; an
    // extension block of another module's type is a declaration's container, not a symbol its
    // members' docs leave undocumented.
    guard let uri = symbol.location?.uri, uri.contains("/Sources/"),
      symbol.kind.identifier != "swift.extension"
    else { continue }
    checked += 1
    if symbol.docComment == nil {
      let file = uri.components(separatedBy: "/Sources/").last ?? uri
      missing.append(
        "\(file): \(symbol.kind.identifier) \(symbol.pathComponents.joined(separator: "."))")
    }
  }
}
for line in missing.sorted() { print("undocumented: \(line)") }
print("\(checked) public symbols, \(missing.count) without a doc comment")
exit(missing.isEmpty ? 0 : 1)
