/// What a container knows, behind its lock: its own registrations, the nodes it built anew for
/// registrations it inherits, and its lookup table, live and published.
struct Registry {
  /// Inherited registrations this container builds itself, because they depend on one of its
  /// own; kept for its life, so that none is built twice.
  var copies: [AnyServiceKey: AnyNode] = [:]
  /// The live table: the own registrations, then the copies (a child makes copies only once
  /// it has published, and registers nothing after that).
  var table = LookupTable()
  /// Own registrations left out of ``ordered``: members of refused contributions.
  private var unlisted: Set<AnyServiceKey> = []
  /// Bumped on every change of `table`.
  private var version = 0
  /// Every table published, the current one last: a lock-free reader may still hold one.
  /// Republishing only at twice the keys or as many misses as slots bounds their total size.
  private(set) var retired: [LookupSnapshot] = []
  /// Whether the live table is the one published last, sharing its storage.
  private var isPublished = false
  /// Lookups that missed the published table since it was published.
  private var missedLookups = 0
  /// Nodes replaced by a registration with `replacing: true`: a reader may still hold one.
  var replaced: [AnyNode] = []
  /// Whether the table was published once; a child may not register any more after that.
  var hasPublished = false
  /// In a child: whether its parent lists it among its published children (before it first
  /// reads the parent's table).
  var listedWithParent = false
  /// Children that have published their tables, and may hold this container's nodes: while
  /// one lives, no registration here may be replaced.
  var publishedChildren: [WeakContainer] = []
  /// How many children may be listed before the dead ones are dropped.
  var publishedChildrenLimit = 8

  /// Set by ``Container/shutDown()``: no table is published any more.
  var isShutDown = false
  /// In a child: told before a missed lookup asks the parent, for tests
  /// (``Container/onParentLookup(_:)``).
  var parentLookupObserver: (@Sendable () -> Void)?

  /// What is known of some registrations beyond their nodes (module, forward, collection).
  var notes: [AnyServiceKey: RegistrationNote] = [:]
  /// Collections handed out empty: a contribution to one is refused.
  var emptyCollectionsHandedOut: Set<AnyServiceKey> = []
  /// Modules being installed, innermost last.
  var installing: [Installing] = []

  /// Registrations made in this container, in registration order (a replacement in the place
  /// of the node it replaced).
  var ordered: [AnyNode] {
    let own = table.count - copies.count
    var nodes = own == table.count ? table.nodes : Array(table.nodes.prefix(own))
    if !unlisted.isEmpty { nodes.removeAll { unlisted.contains($0.key) } }
    return nodes
  }

  /// Leaves the registration of `key` out of ``ordered``, for good: it stays in the table.
  mutating func unlist(_ key: AnyServiceKey) {
    unlisted.insert(key)
  }

  /// Puts `node` in the live table, and returns the node it replaces, if any; a replacement
  /// is published at once (a handle or a lookup then finds it).
  @discardableResult
  mutating func insert(_ node: AnyNode, publishingTo container: Container) -> AnyNode? {
    let (index, existing) = insertIfNew(node)
    guard existing != nil else { return nil }
    return replace(at: index, with: node, publishingTo: container)
  }

  /// Sets `node` in the live table if its key is new there, making room first; returns the
  /// key's slot, and the node it has if it was set already.
  @inline(__always)
  mutating func insertIfNew(_ node: AnyNode) -> (index: Int, existing: AnyNode?) {
    // A full table grows; a published one is copied before it changes.
    if !table.hasRoom {
      table.grow()
    } else if isPublished {
      table.rebuild(capacity: table.capacity)
    }
    isPublished = false
    let inserted = table.insert(node)
    if inserted.existing == nil { version += 1 }
    return inserted
  }

  /// Puts `node` in the place of the node of its key at slot `index` (``insertIfNew(_:)``),
  /// and publishes the table at once if one was published; returns the node replaced.
  @discardableResult
  mutating func replace(at index: Int, with node: AnyNode, publishingTo container: Container)
    -> AnyNode
  {
    version += 1
    let replaced = table.replace(at: index, with: node)
    if !retired.isEmpty { publish(to: container) }
    return replaced
  }

  /// Notes a lookup that missed the published table, and publishes the live one if it has
  /// changed and has twice the keys, or enough lookups missed.
  mutating func lookedUp(publishingTo container: Container) {
    guard let last = retired.last else { return publish(to: container) }
    if last.version == version { return }
    missedLookups += 1
    if table.count >= 2 * last.table.count || missedLookups >= table.capacity {
      publish(to: container)
    }
  }

  /// Every table published, and the live one if it has changed since.
  var retainedTables: [LookupTable] {
    let published = retired.map(\.table)
    return retired.last?.version == version ? published : published + [table]
  }

  /// Publishes the live table: from now on lookups read it without the lock.
  mutating func publish(to container: Container) {
    guard !isShutDown, retired.last?.version != version else { return }
    let snapshot = LookupSnapshot(table: table, version: version)
    retired.append(snapshot)
    isPublished = true
    container.published.store(snapshot)
    missedLookups = 0
  }

  /// Lists `child` as one that has published its table.
  mutating func addPublishedChild(_ child: Container) {
    if publishedChildren.count >= publishedChildrenLimit {
      publishedChildren.removeAll { $0.container == nil }
      publishedChildrenLimit = max(8, publishedChildren.count * 2)
    }
    publishedChildren.append(WeakContainer(container: child))
  }

  /// A live child that has published its table, if there is one. Each weak reference is
  /// loaded once: a child may be freed on another thread between two loads.
  var livePublishedChild: Container? {
    for child in publishedChildren {
      if let container = child.container { return container }
    }
    return nil
  }
}

/// A container, not kept alive.
struct WeakContainer {
  weak var container: Container?
}

/// A lookup table as published: immutable, read without a lock.
final class LookupSnapshot: Sendable {
  let table: LookupTable
  /// The registry's version of the table.
  let version: Int

  init(table: LookupTable, version: Int) {
    self.table = table
    self.version = version
  }

  /// The node registered for the type with metadata address `type` and `name`.
  @inline(__always)
  func find(_ type: UInt, _ name: String?, _ nameHash: UInt) -> AnyNode? {
    table.find(type, name, nameHash)
  }
}

/// An open-addressing table from a service key to its node, at most half full, probed
/// linearly from a multiply-shift hash of the type's metadata address and the name's hash.
///
/// A value: the registry changes its copy under the lock and publishes one
/// (``LookupSnapshot``) that lookups read without it. A slot holds the position of a node in
/// `nodes` plus one (0 is empty), so growing rehashes integers and moves no node. No key is
/// ever removed, so a probe ends at the first empty slot.
struct LookupTable: Sendable {
  /// The nodes, in the order their keys were first set.
  private(set) var nodes: [AnyNode] = []
  private var slots: [Int32]
  private var shift: Int

  /// How many keys are set.
  var count: Int { nodes.count }

  /// How many slots the table has: a power of two.
  var capacity: Int { slots.count }

  /// Makes an empty table of `capacity` slots, a power of two of at least 2.
  init(capacity: Int = 8) {
    precondition(capacity >= 2 && capacity & (capacity - 1) == 0, "not a power of two")
    shift = UInt.bitWidth - capacity.trailingZeroBitCount
    slots = Array(repeating: 0, count: capacity)
  }

  /// Whether one more key fits without making the table more than half full.
  var hasRoom: Bool { (count + 1) * 2 <= capacity }

  /// The node registered for `key`.
  func find(_ key: AnyServiceKey) -> AnyNode? {
    find(UInt(bitPattern: key.typeID), key.name, key.nameHash)
  }

  /// The node registered for the type with metadata address `type` and `name`.
  @inline(__always)
  func find(_ type: UInt, _ name: String?, _ nameHash: UInt) -> AnyNode? {
    probe(type, name, nameHash).node
  }

  /// The slot of the type with metadata address `type` and `name`, and its node if it is set
  /// (else the slot is empty).
  @inline(__always)
  private func probe(_ type: UInt, _ name: String?, _ nameHash: UInt) -> (
    index: Int, node: AnyNode?
  ) {
    let mask = slots.count - 1
    var index = multiplyShift(type ^ nameHash, shift: shift)
    while true {
      let slot = Int(slots[index])
      if slot == 0 { return (index, nil) }
      let node = nodes[slot - 1]
      if UInt(bitPattern: node.key.typeID) == type && node.key.name == name { return (index, node) }
      index = (index &+ 1) & mask
    }
  }

  /// Sets `node` for its key if the key is new (the table must have ``hasRoom``); returns the
  /// key's slot, and the node it had if it was set already.
  mutating func insert(_ node: AnyNode) -> (index: Int, existing: AnyNode?) {
    precondition(hasRoom, "the lookup table is full")
    let key = node.key
    let (index, existing) = probe(UInt(bitPattern: key.typeID), key.name, key.nameHash)
    if let existing { return (index, existing) }
    nodes.append(node)
    slots[index] = Int32(truncatingIfNeeded: nodes.count)
    return (index, nil)
  }

  /// Puts `node` in the place of the node of its key at slot `index`, and returns that node.
  mutating func replace(at index: Int, with node: AnyNode) -> AnyNode {
    let position = Int(slots[index]) - 1
    let old = nodes[position]
    nodes[position] = node
    return old
  }

  /// Makes the table four times its size under 1,024 slots, twice beyond, so that a
  /// composition root of a few hundred services rebuilds it three or four times.
  mutating func grow() {
    rebuild(capacity: slots.count * (slots.count < 1_024 ? 4 : 2))
  }

  /// Makes the table's slots anew, `capacity` of them (a power of two, at least twice the
  /// keys), and the nodes' list unique with room for as many keys. A table shared with a
  /// published copy is rebuilt before it changes, rather than copied on write.
  mutating func rebuild(capacity: Int) {
    shift = UInt.bitWidth - capacity.trailingZeroBitCount
    slots = Array(repeating: 0, count: capacity)
    nodes.reserveCapacity(capacity / 2)
    let mask = capacity - 1
    for position in nodes.indices {
      let key = nodes[position].key
      var index = multiplyShift(UInt(bitPattern: key.typeID) ^ key.nameHash, shift: shift)
      while slots[index] != 0 { index = (index &+ 1) & mask }
      slots[index] = Int32(position + 1)
    }
  }
}

/// Spreads `value` over a power-of-two table: the top bits of its product with 2⁶⁴/φ, `shift`
/// being the word's width less the table size's bits.
@inline(__always)
func multiplyShift(_ value: UInt, shift: Int) -> Int {
  // A masking shift: `shift` is between 1 and 63, and `>>` would check it.
  Int(
    truncatingIfNeeded: (value &* UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64))
      &>> shift)
}
