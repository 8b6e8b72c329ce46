/// The keys of the dependencies a factory declares, in order: the graph's edges of one node.
///
/// Most factories declare their dependencies by their parameters' types, and most have one or
/// two: those are kept inline, as the types alone (an unnamed key is its type), so that
/// registering them allocates nothing. Three or more, or any key with a name, are kept in an
/// array. Read like an array of keys: the build walk and validation iterate it, the keyed
/// forms' factories read it by position.
struct DependencyList: RandomAccessCollection, ExpressibleByArrayLiteral, Equatable, Sendable {
  private enum Storage: Sendable {
    case none
    case one(Any.Type)
    case two(Any.Type, Any.Type)
    case keys([AnyServiceKey])
  }

  private var storage: Storage

  /// No dependencies.
  init() {
    storage = .none
  }

  /// The unnamed key of `type`, kept inline.
  init(_ type: Any.Type) {
    storage = .one(type)
  }

  /// The unnamed keys of `first` and `second`, in order, kept inline.
  init(_ first: Any.Type, _ second: Any.Type) {
    storage = .two(first, second)
  }

  /// The keys `keys`, in order.
  init(_ keys: [AnyServiceKey]) {
    storage = keys.isEmpty ? .none : .keys(keys)
  }

  /// The keys of an array literal, in order.
  init(arrayLiteral keys: AnyServiceKey...) {
    self.init(keys)
  }

  /// Appends the unnamed key of `type`; `capacity` is how many keys the list will hold, if
  /// known, so that an array is made once of the right size.
  @inline(__always)
  mutating func append(type: Any.Type, capacity: Int = 0) {
    switch storage {
    case .none: storage = .one(type)
    case .one(let first): storage = .two(first, type)
    case .two(let first, let second):
      var keys: [AnyServiceKey] = []
      keys.reserveCapacity(Swift.max(3, capacity))
      keys.append(AnyServiceKey(first, name: nil, nameHash: 0))
      keys.append(AnyServiceKey(second, name: nil, nameHash: 0))
      keys.append(AnyServiceKey(type, name: nil, nameHash: 0))
      storage = .keys(keys)
    case .keys(var keys):
      storage = .none
      keys.append(AnyServiceKey(type, name: nil, nameHash: 0))
      storage = .keys(keys)
    }
  }

  /// Appends `key`.
  mutating func append(_ key: AnyServiceKey) {
    if key.name == nil, count < 2 {
      append(type: key.type)
      return
    }
    var keys = Array(self)
    keys.append(key)
    storage = .keys(keys)
  }

  var startIndex: Int { 0 }

  var endIndex: Int {
    switch storage {
    case .none: 0
    case .one: 1
    case .two: 2
    case .keys(let keys): keys.count
    }
  }

  subscript(position: Int) -> AnyServiceKey {
    switch storage {
    case .none:
      preconditionFailure("no dependency at \(position)")
    case .one(let type):
      precondition(position == 0, "no dependency at \(position)")
      return AnyServiceKey(type, name: nil, nameHash: 0)
    case .two(let first, let second):
      precondition(position == 0 || position == 1, "no dependency at \(position)")
      return AnyServiceKey(position == 0 ? first : second, name: nil, nameHash: 0)
    case .keys(let keys):
      return keys[position]
    }
  }

  /// The type of the dependency at `position` if it is kept as a type alone (an unnamed key
  /// among the first two), else `nil` (read its key by subscript): no key to make, no name to
  /// retain and release.
  @inline(__always)
  func unnamedType(at position: Int) -> Any.Type? {
    switch storage {
    case .one(let type): type
    case .two(let first, let second): position == 0 ? first : second
    case .none, .keys: nil
    }
  }

  /// Whether `body` is true of every key, in order until it is not: the storage looked at once,
  /// the inline keys without an iterator (the hot path of a transient resolve).
  @inline(__always)
  func allSatisfy(_ body: (AnyServiceKey) -> Bool) -> Bool {
    switch storage {
    case .none: return true
    case .one(let type): return body(AnyServiceKey(type, name: nil, nameHash: 0))
    case .two(let first, let second):
      return body(AnyServiceKey(first, name: nil, nameHash: 0))
        && body(AnyServiceKey(second, name: nil, nameHash: 0))
    case .keys(let keys):
      for key in keys where !body(key) { return false }
      return true
    }
  }

  /// The keys in order. The storage is looked at once, not at every key: the array of more
  /// than two is taken out of it once (a subscript by position retains it for each key).
  @inline(never)
  func makeIterator() -> Iterator {
    switch storage {
    case .none: Iterator(first: nil, second: nil, keys: nil)
    case .one(let type): Iterator(first: type, second: nil, keys: nil)
    case .two(let first, let second): Iterator(first: first, second: second, keys: nil)
    case .keys(let keys): Iterator(first: nil, second: nil, keys: keys)
    }
  }

  /// The keys of a list, in order.
  struct Iterator: IteratorProtocol {
    fileprivate var first: Any.Type?
    fileprivate var second: Any.Type?
    /// More than two keys; `nil` otherwise (an empty array would still be retained).
    fileprivate let keys: [AnyServiceKey]?
    private var index = 0

    fileprivate init(first: Any.Type?, second: Any.Type?, keys: [AnyServiceKey]?) {
      self.first = first
      self.second = second
      self.keys = keys
    }

    @inline(never)
    mutating func next() -> AnyServiceKey? {
      if let type = first {
        first = second
        second = nil
        return AnyServiceKey(type, name: nil, nameHash: 0)
      }
      guard let keys, index < keys.count else { return nil }
      defer { index += 1 }
      return keys[index]
    }
  }

  static func == (lhs: DependencyList, rhs: DependencyList) -> Bool {
    lhs.elementsEqual(rhs)
  }
}
