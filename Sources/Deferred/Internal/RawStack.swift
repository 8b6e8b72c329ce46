/// A growable stack of `Element`s in memory of its own, allocated on the first append.
///
/// An `Array` of one of the library's own types makes the Swift runtime build the metadata of
/// its storage class the first time, in every process (over 10,000 instructions each, on the
/// launch's first build); this needs none.
struct RawStack<Element>: ~Copyable {
  private var base: UnsafeMutablePointer<Element>?
  private var capacity: Int
  private(set) var count = 0
  /// Whether `base` is memory of the stack's own, not memory lent by its maker.
  private var owned = true

  /// A stack whose first append makes room for `capacity` elements.
  init(capacity: Int = 16) {
    self.capacity = Swift.max(1, capacity)
  }

  /// A stack in `buffer` (lent by the caller, for the stack's whole life: memory on the native
  /// stack, say), until it outgrows it: it then moves to memory of its own.
  init(lending buffer: UnsafeMutableBufferPointer<Element>) {
    capacity = Swift.max(1, buffer.count)
    if let lent = buffer.baseAddress, buffer.count > 0 {
      base = lent
      owned = false
    }
  }

  deinit {
    guard let base else { return }
    base.deinitialize(count: count)
    if owned { base.deallocate() }
  }

  var isEmpty: Bool { count == 0 }

  /// Inlined: the build walk and the recorder push on every build, and a call cost more
  /// than the push.
  @inline(__always)
  mutating func append(_ element: consuming Element) {
    if base == nil {
      base = .allocate(capacity: capacity)
    } else if count == capacity {
      // Out of lent memory, at least the capacity a stack of its own starts with.
      let grownCapacity = owned ? capacity * 2 : Swift.max(capacity * 2, 16)
      let grown = UnsafeMutablePointer<Element>.allocate(capacity: grownCapacity)
      grown.moveInitialize(from: base!, count: count)
      if owned { base!.deallocate() }
      base = grown
      owned = true
      capacity = grownCapacity
    }
    (base! + count).initialize(to: element)
    count += 1
  }

  mutating func removeLast() -> Element {
    precondition(count > 0, "removeLast() on an empty stack")
    count -= 1
    return (base! + count).move()
  }

  /// The element at `index`, in place: reading or writing one field of it copies nothing else
  /// (a getter would copy the whole element, retains included, for each field read).
  subscript(index: Int) -> Element {
    unsafeAddress {
      precondition(index >= 0 && index < count, "index out of range")
      return UnsafePointer(base.unsafelyUnwrapped + index)
    }
    unsafeMutableAddress {
      precondition(index >= 0 && index < count, "index out of range")
      return base.unsafelyUnwrapped + index
    }
  }

  /// Calls `body` with every element, bottom first.
  func forEachElement(_ body: (borrowing Element) throws -> Void) rethrows {
    guard let base else { return }
    for index in 0..<count { try body(base[index]) }
  }
}
