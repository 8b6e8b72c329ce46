#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The compile-time figures of `Scripts/compile-time.sh`, which the benchmarks do not measure
/// themselves (a compile of a generated composition root per registration form).
enum CompileTime {
  /// The value of the `compileTime1000` member of the one-line JSON object that
  /// `compile-time.sh --output FILE` wrote: `{"DeferredParameters": s, …}`, or `nil` if the
  /// file cannot be read or holds no such member.
  static func read(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var text = ""
    var buffer = [CChar](repeating: 0, count: 4096)
    while fgets(&buffer, Int32(buffer.count), file) != nil {
      text += String(
        decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    let member = "\"compileTime1000\": "
    guard let start = text.firstRange(of: member)?.upperBound,
      let end = text[start...].firstIndex(of: "}")
    else { return nil }
    return String(text[start...end])
  }
}
