/// Values interned for the life of the process: each distinct value gets a 32-bit index once,
/// and is read back by it. What a small plain value stands for when the value itself is large or
/// not trivially copied (a `when` priority's branches, an idle delay, a named scope's name): the
/// plain value is copied and compared as its index, and equal values have one index.
///
/// Interned values are few (one per distinct priority, delay or scope an app registers) and
/// never freed. A table whose values may keep coming (a thread's name, for every thread a
/// long-running process starts) has a limit: once it holds that many, a new value gets the
/// index of `overflow`, one of the initial values, which stands for all of them.
final class InternTable<Value: Hashable & Sendable>: Sendable {
  private let table: Locked<(all: [Value], indices: [Value: UInt32])>
  /// The most values it holds, and the index a value beyond them gets.
  private let limit: (count: Int, overflow: UInt32)?

  /// A table holding `initial` (at index 0, and so on), if any; with a `limit`, at most that
  /// many values, new values beyond it getting the index `overflow` (of an initial value).
  init(_ initial: [Value] = [], limit: Int? = nil, overflow: UInt32 = 0) {
    var indices: [Value: UInt32] = [:]
    for (index, value) in initial.enumerated() { indices[value] = UInt32(index) }
    table = Locked((initial, indices))
    self.limit = limit.map { (max($0, initial.count), overflow) }
  }

  /// The index of `value`, taken the first time it is seen (`overflow`'s once the table is
  /// full).
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
