import Synchronization

/// The one home of a service's value in raw memory: the cell of a node, holding its built
/// singleton, and the destinations factories write values into.
///
/// A node is one non-generic class for every service type (Docs/Design.md, "One node per
/// singleton"), so the value lives in memory the cell allocates for one value of the node's
/// type, published once with release ordering and read with acquire ordering.
///
/// Safety (Docs/Design.md, "Memory safety"): memory is allocated for exactly `type`; a value is
/// written to it only through ``ValueDestination/initialize(to:)``, which checks the type in
/// debug builds; it is published at most once; it is read only as the type that keyed the
/// lookup (a node is found by its key, whose type is its value's type), and freed only when the
/// node is, when no reader can hold it.
@usableFromInline
struct ValueCell: ~Copyable {
  /// The value's type.
  let type: Any.Type
  /// The value's memory once published; read it with acquire ordering (``ServiceHandle`` reads
  /// it inlined).
  @usableFromInline let published = Atomic<UnsafeMutableRawPointer?>(nil)

  init(type: Any.Type) {
    self.type = type
  }

  deinit {
    guard let raw = published.load(ordering: .acquiring) else { return }
    ValueDestination(raw: raw, type: type).destroy()
  }

  /// Whether the value is built and published.
  @inline(__always)
  var isSet: Bool { published.load(ordering: .acquiring) != nil }

  /// The published value, or `nil` before it is.
  @inline(__always)
  var reference: ValueReference? {
    published.load(ordering: .acquiring).map(ValueReference.init)
  }

  /// Fresh memory for one value of the cell's type, for a factory to write to.
  func destination() -> ValueDestination {
    ValueDestination.allocate(type)
  }

  /// Publishes a value a factory wrote to `destination`: from now on readers see it.
  func publish(_ destination: consuming ValueDestination) {
    precondition(
      published.load(ordering: .relaxed) == nil, "a service's value was published twice")
    published.store(destination.raw, ordering: .releasing)
  }

  /// The value, read as `Value`; the cell must be set.
  func read<Value>(as _: Value.Type) -> Value {
    assert(Value.self == type, "read \(type) as \(Value.self)")
    guard let reference else { preconditionFailure("\(type) read before it was built") }
    return reference.load(as: Value.self)
  }
}

/// A published value, as the resolve hot path hands it to the inlined generic caller.
///
/// It is not generic, so finding it needs no type metadata at run time; the caller knows the
/// type (the one the service was looked up by) and copies the value out.
@usableFromInline
struct ValueReference {
  @usableFromInline let raw: UnsafeMutableRawPointer

  init(_ raw: UnsafeMutableRawPointer) {
    self.raw = raw
  }

  /// A copy of the value, of `Value`, the type the service was looked up by.
  @inlinable @inline(__always)
  func load<Value>(as _: Value.Type) -> Value {
    raw.assumingMemoryBound(to: Value.self).pointee
  }
}

/// Memory for one value of a known type, which a factory initialises.
///
/// Made by a node's cell (a singleton's value, published once built) or for one transient value
/// (moved out once made).
///
/// Safety: it is not copyable, so one factory at a time writes to it (Docs/Design.md, "Memory
/// safety").
@usableFromInline
struct ValueDestination: ~Copyable, @unchecked Sendable {
  fileprivate let raw: UnsafeMutableRawPointer
  let type: Any.Type

  /// Gives the memory back: to `context`'s scratch if it is from there, otherwise to the heap.
  @inline(__always)
  private func free(from context: BuildContext?) {
    if let context, context.releaseScratch(raw) { return }
    raw.deallocate()
  }

  /// Memory for one value of `type`, not initialised.
  static func allocate(_ type: Any.Type) -> ValueDestination {
    func allocate<Value>(_: Value.Type) -> UnsafeMutableRawPointer {
      UnsafeMutableRawPointer(UnsafeMutablePointer<Value>.allocate(capacity: 1))
    }
    return ValueDestination(raw: allocate(type), type: type)
  }

  /// Memory for one transient value of `Value`, made synchronously on `context`: on the
  /// context's scratch memory where it fits (making it then allocates only what its factory
  /// does), otherwise on the heap.
  @inline(__always)
  static func transient<Value>(_: Value.Type, on context: BuildContext) -> ValueDestination {
    if let raw = context.takeScratch(
      byteCount: MemoryLayout<Value>.size, alignment: MemoryLayout<Value>.alignment)
    {
      return ValueDestination(raw: raw, type: Value.self)
    }
    return allocate(Value.self)
  }

  /// Writes the value; `Value` must be the destination's type.
  func initialize<Value>(to value: consuming Value) {
    assert(Value.self == type, "wrote \(Value.self) where \(type) belongs")
    raw.initializeMemory(as: Value.self, to: value)
  }

  /// Moves the value out, and frees the memory: to `context`'s scratch if it is from there
  /// (``transient(_:on:)``), otherwise to the heap.
  consuming func take<Value>(as _: Value.Type, from context: BuildContext? = nil) -> Value {
    assert(Value.self == type, "took \(type) as \(Value.self)")
    defer { free(from: context) }
    return raw.assumingMemoryBound(to: Value.self).move()
  }

  /// Frees memory that holds no value (the factory threw), as ``take(as:from:)`` does.
  consuming func discard(from context: BuildContext? = nil) {
    free(from: context)
  }

  /// Destroys the value in it and frees the memory.
  fileprivate consuming func destroy() {
    func deinitialize<Value>(_: Value.Type, _ raw: UnsafeMutableRawPointer) {
      raw.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
    }
    let type: Any.Type = type
    deinitialize(type, raw)
    raw.deallocate()
  }
}

/// One generation of a held service's value (a named scope's, or a singleton's built with
/// one): a cell of its own, published once, freed when the last reader lets the box go.
///
/// Lock-free readers may hold a node and read its cell at any time, so a node's cell is never
/// freed under them; a held value lives in a box instead, which the node's state keeps under
/// its lock and a reader retains under that lock. A reset drops the state's reference: readers
/// that took the box still read it, and the value goes with the last of them
/// (Docs/Design.md, "Weak and named scopes").
///
/// Safety: `@unchecked Sendable` as the node's cell: published once before the box is shared,
/// read only after.
final class ValueBox: @unchecked Sendable {
  let cell: ValueCell

  init(_ destination: consuming ValueDestination) {
    cell = ValueCell(type: destination.type)
    cell.publish(destination)
  }
}

/// A held service's value as handed to the one who resolves it: a generation's box, or a weak
/// service's object, retained.
enum Held: @unchecked Sendable {
  case box(ValueBox)
  case object(AnyObject)

  /// The value, as `Value`, the type of the service's key.
  func read<Value>(as _: Value.Type) -> Value {
    switch self {
    case .box(let box): return box.cell.read(as: Value.self)
    case .object(let object):
      // The registration checked that `Value` is a class or a class-bound existential, and
      // the object was made as a `Value`: the cast cannot fail.
      guard let value = object as? Value else {
        preconditionFailure("\(type(of: object)) read as \(Value.self)")
      }
      return value
    }
  }
}

/// A weak service's object, not kept alive.
///
/// A class, not a struct: a weak reference stored inline would make the slot's state enum
/// costly to copy and switch over (not bitwise-takable), on every singleton's build too.
final class WeakObject {
  weak var object: AnyObject?

  init(object: AnyObject) {
    self.object = object
  }
}

extension ValueDestination {
  /// Moves the value out as the object it is (a weak service's value), and frees the memory.
  consuming func takeObject() -> AnyObject {
    func take<Value>(_: Value.Type, _ destination: consuming ValueDestination) -> AnyObject {
      destination.take(as: Value.self) as AnyObject
    }
    let type: Any.Type = type
    return take(type, self)
  }
}

/// Whether values of `type` are objects, which a weak reference can hold: a class, or an
/// existential whose protocols are bound to classes (`any P` where `P: AnyObject`).
///
/// Swift 6.3 does not let `any P` satisfy an `AnyObject` generic constraint even when `P` is
/// class-bound, so the check is at run time: a class is an `AnyObject.Type`; an existential is
/// told apart by its metadata (kind 0x303, and its flags' class-constraint bit clear: the
/// runtime's stable layout of existential type metadata).
func isObjectType(_ type: Any.Type) -> Bool {
  if type is AnyObject.Type { return true }
  let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
  let existentialKind = 0x303
  guard metadata.load(as: Int.self) == existentialKind else { return false }
  let flags = metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: UInt32.self)
  let anyConstraint: UInt32 = 0x8000_0000
  return flags & anyConstraint == 0
}
