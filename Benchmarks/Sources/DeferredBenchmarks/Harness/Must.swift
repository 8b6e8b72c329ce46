/// Runs `body`, and stops the benchmark with the error if it throws: a benchmark whose set-up or
/// resolve fails measures nothing.
@inline(__always) @discardableResult
func must<Value, Failure: Error>(_ body: () throws(Failure) -> Value) -> Value {
  do {
    return try body()
  } catch {
    fatalError("benchmark failed: \(error)")
  }
}
