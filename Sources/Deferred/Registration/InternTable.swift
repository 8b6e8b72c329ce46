/// Values interned for the life of the process, each distinct value given a 32-bit index
/// once: a small plain value stands for a large one (a `when` priority's branches, an idle
/// delay, a named scope's name). Values are never freed; a table whose values may keep coming
/// (thread names) has a limit, beyond which new values get the index `overflow`.
final class InternTable<Value: Hashable & Sendable>: Sendable {
  private let table: Locked<(all: [Value], indices: [Value: UInt32])>
  /// The most values it holds, and the index a value beyond them gets.
  private let limit: (count: Int, overflow: UInt32)?

  /// A table holding `initial` (from index 0); with a `limit`, at most that many values.
  init(_ initial: [Value] = [], limit: Int? = nil, overflow: UInt32 = 0) {
    var indices: [Value: UInt32] = [:]
    for (index, value) in initial.enumerated() { indices[value] = UInt32(index) }
    table = Locked((initial, indices))
    self.limit = limit.map { (max($0, initial.count), overflow) }
  }

  /// The index of `value`, taken the first time it is seen (`overflow` once full).
  func index(of value: Value) -> UInt32 {
    table.withLock { table in
      if let index = table.indices[value] { return index }
      if let limit, table.all.count >= limit.count { return limit.overflow }
      let index = UInt32(table.all.count)
      table.all.append(value)
      table.indices[value] = index
      return index
    }
  }

  /// The value of `index`.
  func value(at index: UInt32) -> Value { table.withLock { $0.all[Int(index)] } }

  /// How many values it holds.
  var count: Int { table.withLock { $0.all.count } }
}
