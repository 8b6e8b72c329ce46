/// An immutable open-addressing table from a service key to its node, read without a lock.
///
/// A container publishes one with release ordering and readers load it with acquire ordering.
/// It hashes the type's metadata address with a multiply-shift (no SipHash for unnamed keys)
/// and probes linearly; it holds its nodes strongly, and the container keeps every table it
/// ever published alive, so a reader never sees one freed under it.
final class LookupTable: @unchecked Sendable {
  private struct Slot {
    var type: UInt = 0
    var name: String?
    var node: Unmanaged<AnyNode>?
    /// Set while the table is made, once the node is in ``LookupTable/orderedNodes``.
    var listed = false
  }

  private let slots: UnsafeMutablePointer<Slot>
  private let shift: Int
  private let mask: Int
  /// Every node of the table, keeping them alive.
  let nodes: [AnyServiceKey: AnyNode]
  /// The keys in registration order, the ancestors' first; may hold keys a child overrides.
  let order: [AnyServiceKey]

  /// The table of a container that was shut down.
  static let empty = LookupTable([:], order: [])

  /// The nodes in registration order, each once.
  let orderedNodes: [AnyNode]

  init(_ nodes: [AnyServiceKey: AnyNode], order: [AnyServiceKey]) {
    self.nodes = nodes
    self.order = order
    var bits = 3
    while (1 << bits) < nodes.count * 2 { bits += 1 }
    let capacity = 1 << bits
    shift = UInt.bitWidth - bits
    mask = capacity - 1
    slots = .allocate(capacity: capacity)
    slots.initialize(repeating: Slot(), count: capacity)
    for (key, node) in nodes {
      let type = UInt(bitPattern: key.typeID)
      var index = Self.index(type, key.name, shift)
      while slots[index].node != nil { index = (index &+ 1) & mask }
      slots[index] = Slot(type: type, name: key.name, node: .passUnretained(node))
    }
    // A key is in `order` twice where a child overrides it: it is listed once, where the
    // ancestor registered it. Keys of another container's nodes no longer here are left out.
    var listed: [AnyNode] = []
    listed.reserveCapacity(nodes.count)
    for key in order {
      guard let slot = Self.slot(UInt(bitPattern: key.typeID), key.name, slots, shift, mask),
        !slot.pointee.listed, let node = slot.pointee.node
      else { continue }
      slot.pointee.listed = true
      listed.append(node.takeUnretainedValue())
    }
    orderedNodes = listed
  }

  deinit {
    slots.deinitialize(count: mask + 1)
    slots.deallocate()
  }

  @inline(__always)
  private static func index(_ type: UInt, _ name: String?, _ shift: Int) -> Int {
    var hash = type
    if let name { hash ^= nameHash(name) }
    return multiplyShift(hash, shift: shift)
  }

  /// FNV-1a over the name's UTF-8: names are short, and nothing here needs SipHash's
  /// protection against chosen collisions (the app picks its own names).
  @inline(__always)
  private static func nameHash(_ name: String) -> UInt {
    var name = name
    return name.withUTF8 { bytes in
      var hash: UInt = 0xCBF2_9CE4_8422_2325
      for byte in bytes { hash = (hash ^ UInt(byte)) &* 0x0000_0100_0000_01B3 }
      return hash
    }
  }

  /// The node registered for the type with metadata address `type` and `name`.
  @inline(__always)
  func find(_ type: UInt, _ name: String?) -> Unmanaged<AnyNode>? {
    Self.slot(type, name, slots, shift, mask)?.pointee.node
  }

  @inline(__always)
  private static func slot(
    _ type: UInt, _ name: String?, _ slots: UnsafeMutablePointer<Slot>, _ shift: Int, _ mask: Int
  ) -> UnsafeMutablePointer<Slot>? {
    var index = index(type, name, shift)
    while true {
      let slot = slots + index
      guard slot.pointee.node != nil else { return nil }
      if slot.pointee.type == type && slot.pointee.name == name { return slot }
      index = (index &+ 1) & mask
    }
  }
}

/// Spreads `value` over a power-of-two table by Fibonacci hashing: the top bits of its product
/// with 2⁶⁴/φ, `shift` being the word's width less the table size's bits.
@inline(__always)
func multiplyShift(_ value: UInt, shift: Int) -> Int {
  Int(truncatingIfNeeded: (value &* 0x9E37_79B9_7F4A_7C15) >> UInt(shift))
}
