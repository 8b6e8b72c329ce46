/// Carries a value that is not `Sendable` to another thread, where the value's own locking
/// makes that safe (Swinject's synchronized resolver, for one).
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
}
