import Deferred

/// Network sync with the remote: connecting fingerprints every record of the journal, builds a
/// hash tree of them, and compares it with the remote's to find what changed elsewhere.
///
/// It is built by an `async` factory, because connecting waits for the remote.
public final class SyncService: Sendable {
  /// How many records the journal held.
  public let records: Int
  /// How many records the remote had changed.
  public let changedRemotely: Int
  private let remote: SimulatedRemote
  private let pushed = Locked<[Edit]>([])

  private init(records: Int, changedRemotely: Int, remote: SimulatedRemote) {
    self.records = records
    self.changedRemotely = changedRemotely
    self.remote = remote
  }

  /// Connects to the remote and reconciles the journal with it.
  ///
  /// - Parameters:
  ///   - storage: The store holding the `history` journal.
  ///   - remote: The remote.
  /// - Returns: The connected service.
  /// - Throws: ``DemoError`` if the journal cannot be read or the sync state written.
  public static func connect(storage: Storage, remote: SimulatedRemote) async throws(DemoError)
    -> SyncService
  {
    let journal = try storage.read("history")
    var leaves: [UInt64] = []
    for record in journal.split(separator: UInt8(ascii: "\n")) {
      leaves.append(fnv1a(record, seed: remote.sessionKey))
    }
    let local = HashTree(leaves: leaves)
    await remote.roundTrip()  // handshake: simulated latency
    let theirs = HashTree(leaves: remote.fingerprints(matching: leaves))
    let changed = local.differingLeaves(from: theirs)
    await remote.roundTrip()  // fetch the changed records: simulated latency
    let state = "root=\(local.root)\nrecords=\(leaves.count)\nchanged=\(changed.count)\n"
    try storage.write(Array(state.utf8), to: "sync")
    return SyncService(records: leaves.count, changedRemotely: changed.count, remote: remote)
  }

  /// Sends an edit to the remote.
  ///
  /// - Parameter edit: The finished calculation.
  public func push(_ edit: Edit) {
    pushed.withLock { $0.append(edit) }
    remote.receive(edit)
  }

  /// The edits sent so far, in order.
  public var sent: [Edit] { pushed.withLock { $0 } }
}

/// A binary hash tree over fingerprints, to find the leaves two copies disagree on without
/// comparing every one.
struct HashTree {
  /// The levels, leaves first, root last.
  private let levels: [[UInt64]]

  init(leaves: [UInt64]) {
    var levels = [leaves.isEmpty ? [0] : leaves]
    while levels.last!.count > 1 {
      let below = levels.last!
      var level: [UInt64] = []
      level.reserveCapacity((below.count + 1) / 2)
      for index in stride(from: 0, to: below.count, by: 2) {
        let right = index + 1 < below.count ? below[index + 1] : 0
        var hash = below[index] &* 0x9E37_79B9_7F4A_7C15 ^ right
        hash = (hash ^ (hash >> 29)) &* 0xBF58_476D_1CE4_E5B9
        level.append(hash ^ (hash >> 32))
      }
      levels.append(level)
    }
    self.levels = levels
  }

  var root: UInt64 { levels.last![0] }

  /// The indices of the leaves that differ from `other`'s, found from the root down.
  func differingLeaves(from other: HashTree) -> [Int] {
    guard levels.count == other.levels.count else { return Array(levels[0].indices) }
    var nodes = [0]
    for depth in stride(from: levels.count - 1, to: 0, by: -1) {
      var next: [Int] = []
      for node in nodes where levels[depth][node] != other.levels[depth][node] {
        for child in [node * 2, node * 2 + 1] where child < levels[depth - 1].count {
          next.append(child)
        }
      }
      nodes = next
    }
    return nodes.filter { levels[0][$0] != other.levels[0][$0] }
  }
}
