/// Ready builds of the launch schedule, lowest rank first: a binary min-heap. Ranks are
/// distinct, so the order entries come out in does not depend on the order they went in.
struct RankedQueue: Sendable {
  private struct Item: Sendable {
    let rank: UInt64
    let id: LaunchSchedule.EntryID
  }

  private var items: [Item] = []

  var isEmpty: Bool { items.isEmpty }

  mutating func reserveCapacity(_ capacity: Int) {
    items.reserveCapacity(capacity)
  }

  /// Queues entry `id` of `rank`, moving parents of a higher rank down.
  mutating func push(_ id: LaunchSchedule.EntryID, rank: UInt64) {
    let item = Item(rank: rank, id: id)
    items.append(item)
    var hole = items.count - 1
    while hole > 0 {
      let parent = (hole - 1) / 2
      guard rank < items[parent].rank else { break }
      items[hole] = items[parent]
      hole = parent
    }
    items[hole] = item
  }

  /// Takes the entry of the lowest rank; the last item fills its place and sinks.
  mutating func pop() -> LaunchSchedule.EntryID? {
    guard let last = items.popLast() else { return nil }
    guard !items.isEmpty else { return last.id }
    let best = items[0].id
    var hole = 0
    while true {
      var child = hole * 2 + 1
      guard child < items.count else { break }
      if child + 1 < items.count && items[child + 1].rank < items[child].rank { child += 1 }
      guard items[child].rank < last.rank else { break }
      items[hole] = items[child]
      hole = child
    }
    items[hole] = last
    return best
  }

  mutating func removeAll() { items = [] }
}
