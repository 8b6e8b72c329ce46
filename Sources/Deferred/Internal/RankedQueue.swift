/// Ready builds of the launch schedule, by entry number, lowest rank first: a binary min-heap.
///
/// Ranks are distinct (each ends with the entry's registration order), so the order in which
/// entries come out does not depend on the order they went in.
struct RankedQueue: Sendable {
  private var items: [(rank: UInt64, id: LaunchSchedule.EntryID)] = []

  var isEmpty: Bool { items.isEmpty }

  /// Makes room for `capacity` entries, so that a launch grows the queue once.
  mutating func reserveCapacity(_ capacity: Int) {
    items.reserveCapacity(capacity)
  }

  /// Queues entry `id` of `rank`.
  mutating func push(_ id: LaunchSchedule.EntryID, rank: UInt64) {
    items.append((rank, id))
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child].rank < items[parent].rank else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  /// Takes the entry of the lowest rank.
  mutating func pop() -> LaunchSchedule.EntryID? {
    guard !items.isEmpty else { return nil }
    items.swapAt(0, items.count - 1)
    let best = items.removeLast().id
    var parent = 0
    while true {
      let left = parent * 2 + 1
      let right = left + 1
      var smallest = parent
      if left < items.count && items[left].rank < items[smallest].rank { smallest = left }
      if right < items.count && items[right].rank < items[smallest].rank { smallest = right }
      guard smallest != parent else { return best }
      items.swapAt(parent, smallest)
      parent = smallest
    }
  }

  mutating func removeAll() { items = [] }
}
