import Foundation
import Testing

@testable import Deferred

/// The modules of this build (beside the test executable) and a compiler to type-check a
/// root against them: found where `swift test` builds on Linux; elsewhere the compile-time
/// test is skipped.
enum TypeChecker {
  static let modules: URL? = {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let modules = executable.deletingLastPathComponent().appendingPathComponent("Modules")
    let module = modules.appendingPathComponent("Deferred.swiftmodule").path
    return FileManager.default.fileExists(atPath: module) ? modules : nil
  }()

  static let swiftc: URL? = {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    return paths.lazy.map { URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  static var isAvailable: Bool { modules != nil && swiftc != nil }

  /// The errors the compiler gives `source`, in Swift 6 mode, one line each:
  /// `line: message`.
  static func errors(in source: String) throws -> [String] {
    guard let modules, let swiftc else { return [] }
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("weak-\(UUID().uuidString).swift")
    try source.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = swiftc
    process.arguments = [
      "-typecheck", "-swift-version", "6", "-I", modules.path, "-diagnostic-style", "llvm",
      file.path,
    ]
    let output = Pipe()
    process.standardError = output
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text.split(separator: "\n").compactMap { line in
      guard let range = line.range(of: ": error: ") else { return nil }
      let place = line[..<range.lowerBound].split(separator: ":")
      guard place.count >= 2 else { return nil }
      return "\(place[place.count - 2]): \(line[range.upperBound...])"
    }
  }
}

/// What the weak scope tells a user who meets its limits: what to do, and only what can be
/// done.
@Suite struct WeakScopeGuidanceTests {
  @Test(.enabled(if: TypeChecker.isAvailable))
  func aWeakScopeForATypeThatIsNotAClassDoesNotCompileAndSaysWhatToDo() throws {
    let errors = try TypeChecker.errors(
      in: """
        import Deferred
        struct Plain: Sendable {}
        protocol Viewing: AnyObject, Sendable {}
        final class Cache: Viewing {}
        func root(_ container: Container) throws {
          try container.register(Cache.self, scope: .weak) { Cache() }
          try container.register(ServiceKey<Cache>(name: "b"), scope: .weak) { Cache() }
          try container.register(Cache.self, name: "c", scope: .weak) { _ in Cache() }
          try container.register((any Viewing).self, scope: .weakObject) { Cache() }
          try container.register(Plain.self, scope: .weak) { Plain() }
        }
        """)
    #expect(
      errors == [
        "10: 'weak' is unavailable: a weak reference holds only objects, and this type is not a"
          + " class: for a protocol bound to classes write `.weakObject` (checked when"
          + " registered); a struct, an enum or another protocol needs another scope, such as"
          + " `.singleton` or a named scope"
      ])
  }

  @Test func aWeakServiceThatIsNotAnObjectIsToldWhatToDo() {
    let container = Container()
    let error = #expect(throws: DeferredError.self) {
      try container.register((any Plain).self, scope: .weakObject) { PlainValue() }
    }
    #expect(
      error?.description
        == "Plain cannot be registered as weak: Plain is not a class nor a protocol bound to"
        + " classes, and a weak reference holds only objects: register the class itself as"
        + " weak and forward Plain to it (`forward(_:as:_:)`), declare the protocol"
        + " `: AnyObject` if only classes conform to it, or give it another scope (a"
        + " singleton, or a named scope that `reset(_:)` drops).")
  }

  @Test func aForwardOfAWeakServiceIsWeakToo() throws {
    let container = Container()
    let made = Counter()
    let editor = try container.register(Numbered.self, scope: .weak) { Numbered(made.next()) }
    // The target is not bound to classes: the forward holds nothing, so it may be any type.
    try container.forward(editor, as: (any Sendable).self) { $0 }
    weak var probe: Numbered?
    do {
      let held = try container.resolve(Numbered.self)
      probe = held
      #expect(try container.resolve((any Sendable).self) as? Numbered === held)
    }
    #expect(probe == nil)
    #expect((try container.resolve((any Sendable).self) as? Numbered)?.number == 2)
  }

  @Test func aSingletonOfTheRootThatHoldsAWeakServiceIsToldWhatToDo() throws {
    let container = Container()
    try container.register(Numbered.self, scope: .weak) { Numbered(1) }
    try container.register(Inbox.self) { (numbered: Numbered) in
      Inbox(session: Session(numbered.number))
    }
    let warnings = container.validate().filter { $0.code == .scopeMismatch }
    #expect(
      warnings.map(\.message) == [
        "Numbered, needed by Inbox → Numbered: the singleton Inbox keeps it alive as long as the"
          + " container lives, so its weak scope lets nothing go: register Numbered as a"
          + " singleton, or make Inbox transient, or register Inbox in the child container"
          + " whose life should bound them both."
      ])
  }

  @Test func aChildContainersSingletonThatHoldsAWeakServiceIsNotWarnedOf() throws {
    let app = Container()
    try app.register(Numbered.self, scope: .weak) { Numbered(1) }
    let user = app.makeChild()
    try user.register(Inbox.self) { (numbered: Numbered) in
      Inbox(session: Session(numbered.number))
    }
    #expect(user.validate().isEmpty)
  }
}
