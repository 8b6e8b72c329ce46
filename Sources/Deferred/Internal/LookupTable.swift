import Synchronization

/// An open-addressing table from a service key to its node: written in place under its
/// container's lock, read without one.
///
/// A slot is one word, the node's pointer, unretained (the registry holds the nodes): a
/// slot's key is its node's key, read through the pointer, which a lookup dereferences anyway
/// for the node's value. A node is fully made before its pointer is stored with release
/// ordering; a reader loads the pointer with acquire ordering and only then reads the key. A
/// slot's key never changes once set; only its node does, when a registration is replaced by
/// one of the same key (the registry keeps the replaced node alive, for a reader may still
/// hold it). Nothing is ever removed, so a probe ends at the first empty slot.
///
/// It hashes the type's metadata address, mixed with the name's hash that the key made once,
/// with a multiply-shift, and probes linearly. It is at most half full: a table that would be more is
/// replaced by one twice its size, and retired (kept until the container dies, since a reader
/// may still hold it), so the retired tables of a container hold fewer slots than its live one.
@usableFromInline
final class LookupTable: @unchecked Sendable {
  /// The nodes, unretained: a slot is set once, and changed only to a node of the same key.
  /// The inlined resolve probes them too (``Container/unnamedValue(_:)``).
  @usableFromInline let slots: UnsafeMutablePointer<Atomic<UnsafeRawPointer?>>
  @usableFromInline let shift: Int
  @usableFromInline let mask: Int
  /// How many slots are set; changed only under the container's lock.
  private(set) var count = 0

  /// How many slots the table has: a power of two.
  var capacity: Int { mask + 1 }

  /// Makes an empty table of `capacity` slots, a power of two of at least 2.
  init(capacity: Int = 8) {
    precondition(capacity >= 2 && capacity & (capacity - 1) == 0, "not a power of two")
    shift = UInt.bitWidth - capacity.trailingZeroBitCount
    mask = capacity - 1
    slots = .allocate(capacity: capacity)
    for index in 0..<capacity { (slots + index).initialize(to: Atomic(nil)) }
  }

  deinit {
    slots.deinitialize(count: capacity)
    slots.deallocate()
  }

  /// Whether one more key fits without making the table more than half full.
  var hasRoom: Bool { (count + 1) * 2 <= capacity }

  /// The node registered for the type with metadata address `type` and `name`.
  @inline(__always)
  func find(_ type: UInt, _ name: String?, _ nameHash: UInt) -> Unmanaged<AnyNode>? {
    var index = multiplyShift(type ^ nameHash, shift: shift)
    while true {
      guard let raw = slots[index].load(ordering: .acquiring) else { return nil }
      let node = Unmanaged<AnyNode>.fromOpaque(raw)
      if node._withUnsafeGuaranteedRef({ $0.has(type, name) }) { return node }
      index = (index &+ 1) & mask
    }
  }

  /// The slot of the key of type `type` (its metadata's address) and `name`: the one that
  /// holds its node, with the node, or the empty slot where it would go. Call it under the
  /// container's lock, with ``hasRoom`` true if the key may be new.
  @inline(__always)
  func probe(_ type: UInt, _ name: String?, _ nameHash: UInt) -> (
    index: Int, node: Unmanaged<AnyNode>?
  ) {
    var index = multiplyShift(type ^ nameHash, shift: shift)
    while let raw = slots[index].load(ordering: .relaxed) {
      let node = Unmanaged<AnyNode>.fromOpaque(raw)
      if node._withUnsafeGuaranteedRef({ $0.has(type, name) }) { return (index, node) }
      index = (index &+ 1) & mask
    }
    return (index, nil)
  }

  /// Stores `node` in the slot `index` that ``probe(_:_:_:)`` gave for its key: readers see
  /// the key with its old node or its new one, never without one. Call it under the
  /// container's lock.
  ///
  /// - Returns: The node the slot had, if it had one.
  @inline(__always) @discardableResult
  func store(_ node: AnyNode, at index: Int) -> AnyNode? {
    let old = slots[index].load(ordering: .relaxed)
    if old == nil {
      precondition(hasRoom, "the lookup table is full")
      count += 1
    }
    slots[index].store(
      UnsafeRawPointer(Unmanaged.passUnretained(node).toOpaque()), ordering: .releasing)
    return old.map { Unmanaged<AnyNode>.fromOpaque($0).takeUnretainedValue() }
  }

  /// Sets the node of `node.key`, in place (``probe(_:_:_:)`` then ``store(_:at:)``). Call it
  /// under the container's lock, with ``hasRoom`` true if the key may be new.
  ///
  /// - Returns: The node the key had, if it had one.
  @discardableResult
  func set(_ node: AnyNode) -> AnyNode? {
    let key = node.key
    return store(node, at: probe(UInt(bitPattern: key.typeID), key.name, key.nameHash).index)
  }

  /// A table twice this one's size with the same nodes. Call it under the container's lock.
  func grown() -> LookupTable {
    let table = LookupTable(capacity: capacity * 2)
    for index in 0..<capacity {
      guard let raw = slots[index].load(ordering: .relaxed) else { continue }
      table.add(raw)
    }
    return table
  }

  /// Puts a node whose key the table does not have in the first free slot of its probe.
  private func add(_ raw: UnsafeRawPointer) {
    let key = Unmanaged<AnyNode>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.key }
    var index = multiplyShift(UInt(bitPattern: key.typeID) ^ key.nameHash, shift: shift)
    while slots[index].load(ordering: .relaxed) != nil { index = (index &+ 1) & mask }
    slots[index].store(raw, ordering: .releasing)
    count += 1
  }
}

extension AnyNode {
  /// Whether this node's key is the type with metadata address `type` and `name`.
  @inline(__always)
  func has(_ type: UInt, _ name: String?) -> Bool {
    UInt(bitPattern: key.typeID) == type && key.name == name
  }
}

/// Spreads `value` over a power-of-two table by Fibonacci hashing: the top bits of its product
/// with 2⁶⁴/φ, `shift` being the word's width less the table size's bits.
@inlinable @inline(__always)
func multiplyShift(_ value: UInt, shift: Int) -> Int {
  // A masking shift: `shift` is between 1 and 63, and `>>` would check it.
  Int(truncatingIfNeeded: (value &* 0x9E37_79B9_7F4A_7C15) &>> shift)
}
