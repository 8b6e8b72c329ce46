/// Values interned for the life of the process: each distinct value gets a 32-bit index once,
/// and is read back by it. What a small plain value stands for when the value itself is large or
/// not trivially copied (a `when` priority's branches, an idle delay, a named scope's name): the
/// plain value is copied and compared as its index, and equal values have one index.
///
/// Interned values are few (one per distinct priority, delay or scope an app registers) and
/// never freed.
final class InternTable<Value: Hashable & Sendable>: Sendable {
  private let table: Locked<(all: [Value], indices: [Value: UInt32])>

  /// A table holding `initial` (at index 0, and so on), if any.
  init(_ initial: [Value] = []) {
    var indices: [Value: UInt32] = [:]
    for (index, value) in initial.enumerated() { indices[value] = UInt32(index) }
    table = Locked((initial, indices))
  }

  /// The index of `value`, taken the first time it is seen.
  func index(of value: Value) -> UInt32 {
    table.withLock { table in
      if let index = table.indices[value] { return index }
      let index = UInt32(table.all.count)
      table.all.append(value)
      table.indices[value] = index
      return index
    }
  }

  /// The value of `index`.
  func value(at index: UInt32) -> Value { table.withLock { $0.all[Int(index)] } }
}
