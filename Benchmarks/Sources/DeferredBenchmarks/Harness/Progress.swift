#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a line to standard error, where progress goes: standard output holds only the report.
func logProgress(_ line: String) {
  let text = line + "\n"
  var remaining = Array(text.utf8)[...]
  while !remaining.isEmpty {
    let written = remaining.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    if written <= 0 { break }
    remaining = remaining.dropFirst(written)
  }
}
