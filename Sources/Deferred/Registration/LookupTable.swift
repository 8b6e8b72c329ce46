/// An open-addressing table from a service key to its node.
///
/// A value: the registry changes its own copy under its container's lock, and publishes a
/// copy (``LookupSnapshot``) that lookups read without a lock. The nodes are kept in the order
/// their keys were first set; a slot holds a node's position in that list (plus one, 0 being
/// empty), so that growing the table rehashes small integers and never moves a node. A key is
/// never removed, and its node changes only when a registration is replaced by one of the same
/// key, so a probe ends at the first empty slot.
///
/// It hashes the type's metadata address, mixed with the name's hash that the key made once,
/// with a multiply-shift, and probes linearly. It is at most half full: a table that would be
/// more grows (``grow()``).
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

  /// The node registered for the type with metadata address `type` and `name`.
  @inline(__always)
  func find(_ type: UInt, _ name: String?, _ nameHash: UInt) -> AnyNode? {
    let mask = slots.count - 1
    var index = multiplyShift(type ^ nameHash, shift: shift)
    while true {
      let slot = Int(slots[index])
      if slot == 0 { return nil }
      let node = nodes[slot - 1]
      if UInt(bitPattern: node.key.typeID) == type && node.key.name == name { return node }
      index = (index &+ 1) & mask
    }
  }

  /// Sets `node` for its key if the key is new; otherwise leaves the table as it is. The table
  /// must have room for one more key (``hasRoom``).
  ///
  /// - Returns: The key's slot, and the node it had if it was set already (the slot of a
  ///   replacement, for ``replace(at:with:)``).
  mutating func insert(_ node: AnyNode) -> (index: Int, existing: AnyNode?) {
    precondition(hasRoom, "the lookup table is full")
    let key = node.key
    let mask = slots.count - 1
    var index = multiplyShift(UInt(bitPattern: key.typeID) ^ key.nameHash, shift: shift)
    while true {
      let slot = Int(slots[index])
      if slot == 0 { break }
      let existing = nodes[slot - 1]
      if existing.key.typeID == key.typeID && existing.key.name == key.name {
        return (index, existing)
      }
      index = (index &+ 1) & mask
    }
    nodes.append(node)
    slots[index] = Int32(truncatingIfNeeded: nodes.count)
    return (index, nil)
  }

  /// Puts `node` in the place of the node of slot `index`, which holds a node of the same key
  /// (``insert(_:)``).
  ///
  /// - Returns: The node replaced.
  mutating func replace(at index: Int, with node: AnyNode) -> AnyNode {
    let position = Int(slots[index]) - 1
    let old = nodes[position]
    nodes[position] = node
    return old
  }

  /// Makes the table four times its size while it is small (under 1,024 slots, 4 KiB), twice
  /// beyond, keeping its nodes where they are: a composition root that registers a few
  /// hundred services rebuilds it three or four times, not seven or eight.
  mutating func grow() {
    rebuild(capacity: slots.count * (slots.count < 1_024 ? 4 : 2))
  }

  /// Makes the table's slots anew, `capacity` of them (a power of two, at least twice the
  /// keys), keeping its nodes where they are; the nodes' list is made unique too, with room
  /// for as many keys as the slots take.
  ///
  /// A table that shares its storage with a published copy is rebuilt before it changes: the
  /// copy a change would make otherwise needs, the first time in a process, the metadata of
  /// an array of slots looked up by its mangled name.
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

/// Spreads `value` over a power-of-two table by Fibonacci hashing: the top bits of its product
/// with 2⁶⁴/φ, `shift` being the word's width less the table size's bits.
@inline(__always)
func multiplyShift(_ value: UInt, shift: Int) -> Int {
  // A masking shift: `shift` is between 1 and 63, and `>>` would check it.
  Int(
    truncatingIfNeeded: (value &* UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64))
      &>> shift)
}
