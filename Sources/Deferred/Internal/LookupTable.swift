/// An open-addressing table from a service key to its node.
///
/// A value: the registry changes its own copy under its container's lock, and publishes a
/// copy (``LookupSnapshot``) that lookups read without a lock. A slot holds the node, whose
/// key is the slot's key; a slot's key never changes once set, only its node, when a
/// registration is replaced by one of the same key. Nothing is ever removed, so a probe ends at
/// the first empty slot.
///
/// It hashes the type's metadata address, mixed with the name's hash that the key made once,
/// with a multiply-shift, and probes linearly. It is at most half full: a table that would be
/// more is replaced by one twice its size.
struct LookupTable: Sendable {
  private var slots: [AnyNode?]
  private let shift: Int
  /// How many slots are set.
  private(set) var count = 0

  /// How many slots the table has: a power of two.
  var capacity: Int { slots.count }

  /// Makes an empty table of `capacity` slots, a power of two of at least 2.
  init(capacity: Int = 8) {
    precondition(capacity >= 2 && capacity & (capacity - 1) == 0, "not a power of two")
    shift = UInt.bitWidth - capacity.trailingZeroBitCount
    slots = Array(repeating: nil, count: capacity)
  }

  /// Whether one more key fits without making the table more than half full.
  var hasRoom: Bool { (count + 1) * 2 <= capacity }

  /// The node registered for the type with metadata address `type` and `name`.
  @inline(__always)
  func find(_ type: UInt, _ name: String?, _ nameHash: UInt) -> AnyNode? {
    let mask = slots.count - 1
    var index = multiplyShift(type ^ nameHash, shift: shift)
    while let node = slots[index] {
      if UInt(bitPattern: node.key.typeID) == type && node.key.name == name { return node }
      index = (index &+ 1) & mask
    }
    return nil
  }

  /// The slot of `key`: the one that holds its node, with the node, or the empty slot where it
  /// would go (``hasRoom`` must be true if the key may be new).
  func probe(_ key: AnyServiceKey) -> (index: Int, node: AnyNode?) {
    let mask = slots.count - 1
    var index = multiplyShift(UInt(bitPattern: key.typeID) ^ key.nameHash, shift: shift)
    while let node = slots[index] {
      if node.key.typeID == key.typeID && node.key.name == key.name { return (index, node) }
      index = (index &+ 1) & mask
    }
    return (index, nil)
  }

  /// Stores `node` in the slot `index` that ``probe(_:)`` gave for its key.
  ///
  /// - Returns: The node the slot had, if it had one.
  @discardableResult
  mutating func store(_ node: AnyNode, at index: Int) -> AnyNode? {
    let old = slots[index]
    if old == nil {
      precondition(hasRoom, "the lookup table is full")
      count += 1
    }
    slots[index] = node
    return old
  }

  /// A table twice this one's size with the same nodes.
  func grown() -> LookupTable {
    var table = LookupTable(capacity: capacity * 2)
    for case let node? in slots {
      table.store(node, at: table.probe(node.key).index)
    }
    return table
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
