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
/// more grows to twice its size.
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

  /// The slot of `key`: the one that holds its node, with the node, or the empty slot where it
  /// would go (``hasRoom`` must be true if the key may be new).
  func probe(_ key: AnyServiceKey) -> (index: Int, node: AnyNode?) {
    let mask = slots.count - 1
    var index = multiplyShift(UInt(bitPattern: key.typeID) ^ key.nameHash, shift: shift)
    while true {
      let slot = Int(slots[index])
      if slot == 0 { return (index, nil) }
      let node = nodes[slot - 1]
      if node.key.typeID == key.typeID && node.key.name == key.name { return (index, node) }
      index = (index &+ 1) & mask
    }
  }

  /// Stores `node` in the slot `index` that ``probe(_:)`` gave for its key.
  ///
  /// - Returns: The node the slot had, if it had one.
  @discardableResult
  mutating func store(_ node: AnyNode, at index: Int) -> AnyNode? {
    let slot = Int(slots[index])
    guard slot == 0 else {
      let old = nodes[slot - 1]
      nodes[slot - 1] = node
      return old
    }
    precondition(hasRoom, "the lookup table is full")
    nodes.append(node)
    slots[index] = Int32(nodes.count)
    return nil
  }

  /// Doubles the table's size, keeping its nodes where they are.
  mutating func grow() {
    let capacity = slots.count * 2
    shift = UInt.bitWidth - capacity.trailingZeroBitCount
    slots = Array(repeating: 0, count: capacity)
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
