import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The one home of a service's value in raw memory: the cell of a node, holding its built
/// singleton, and the destinations factories write values into.
///
/// A node is one non-generic class for every service type (Docs/Design.md, "One node per
/// singleton"), so the value lives in memory the cell allocates for one value of the node's
/// type, published once with release ordering and read with acquire ordering. A value of up to
/// two words lives in the cell itself (a singleton's first build then allocates nothing for it).
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
  /// Room for a value of up to two words (most services are a class reference: one word), so
  /// that a singleton's first build allocates nothing for its value. A raw-layout cell: its
  /// address is stable for as long as the cell is (the node's life), as lock-free readers need.
  private let storage = _Cell(InlineWords())

  /// What the inline storage is laid out like: two words, word-aligned.
  private struct InlineWords {
    var first: UInt = 0
    var second: UInt = 0
  }

  init(type: Any.Type) {
    self.type = type
  }

  deinit {
    // A value in the inline storage was destroyed by ``destroyInlineValue()``: the cell's
    // deinit may see a moved copy of the cell, whose inline address is not the storage's.
    guard let raw = published.load(ordering: .acquiring) else { return }
    ValueDestination(raw: raw, type: type).destroy()
  }

  /// Destroys the value published in the inline storage, if that is where it is, and
  /// unpublishes it. Its owner calls it from its own deinit, where the cell is in place.
  func destroyInlineValue() {
    let inline = inlineAddress
    guard published.load(ordering: .acquiring) == inline else { return }
    ValueDestination(raw: inline, type: type).deinitialize()
    published.store(nil, ordering: .relaxed)
  }

  /// The address of the inline storage.
  @inline(__always)
  private var inlineAddress: UnsafeMutableRawPointer { UnsafeMutableRawPointer(storage._address) }

  /// Whether a value of the cell's type fits the inline storage.
  var fitsInline: Bool {
    func fits<Value>(_: Value.Type) -> Bool {
      MemoryLayout<Value>.size <= MemoryLayout<InlineWords>.size
        && MemoryLayout<Value>.alignment <= MemoryLayout<InlineWords>.alignment
    }
    let type: Any.Type = type
    return fits(type)
  }

  /// The inline storage, for a factory to write to. Its caller must own it: one build at a
  /// time, and never once a value is published in it (``AnyNode``'s value-storage flag).
  @inline(__always)
  func inlineDestination() -> ValueDestination {
    ValueDestination(raw: inlineAddress, type: type)
  }

  /// Whether `destination` is the inline storage.
  @inline(__always)
  func holdsInline(_ destination: borrowing ValueDestination) -> Bool {
    destination.raw == inlineAddress
  }

  /// The value in `destination`, the inline storage, moved to memory of its own (for a box,
  /// which may outlive the node's next build).
  func movedToHeap(_ destination: consuming ValueDestination) -> ValueDestination {
    func move<Value>(
      _: Value.Type, from source: UnsafeMutableRawPointer, to target: UnsafeMutableRawPointer
    ) {
      target.initializeMemory(as: Value.self, to: source.assumingMemoryBound(to: Value.self).move())
    }
    let heap = ValueDestination.allocate(type)
    let type: Any.Type = type
    move(type, from: destination.raw, to: heap.raw)
    return heap
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
  private func giveBack(from context: BuildContext?) {
    if let context, context.releaseScratch(raw) { return }
    free(raw)
  }

  /// Memory for one value of `type`, not initialised, from `malloc` (freed with `free`).
  ///
  /// `UnsafeMutablePointer.allocate` goes through the runtime's aligned allocator even for an
  /// alignment `malloc` gives anyway (`posix_memalign`: twice `malloc`'s instructions, on every
  /// singleton's first build).
  static func allocate(_ type: Any.Type) -> ValueDestination {
    func allocate<Value>(_: Value.Type) -> UnsafeMutableRawPointer {
      let size = Swift.max(1, MemoryLayout<Value>.size)
      let alignment = MemoryLayout<Value>.alignment
      if alignment <= 16, let raw = malloc(size) { return raw }
      var raw: UnsafeMutableRawPointer?
      guard posix_memalign(&raw, Swift.max(alignment, MemoryLayout<Int>.size), size) == 0,
        let raw
      else { fatalError("out of memory for a \(Value.self)") }
      return raw
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
    defer { giveBack(from: context) }
    return raw.assumingMemoryBound(to: Value.self).move()
  }

  /// Frees memory that holds no value (the factory threw), as ``take(as:from:)`` does.
  consuming func discard(from context: BuildContext? = nil) {
    giveBack(from: context)
  }

  /// Destroys the value in it and frees the memory.
  fileprivate consuming func destroy() {
    let raw = raw
    deinitialize()
    free(raw)
  }

  /// Destroys the value in it, and leaves the memory (a node's inline storage).
  fileprivate consuming func deinitialize() {
    func deinitialize<Value>(_: Value.Type, _ raw: UnsafeMutableRawPointer) {
      raw.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
    }
    let type: Any.Type = type
    deinitialize(type, raw)
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
  /// `raw`, memory for one value of `type` that is not initialised, which the caller owns
  /// and frees (a handle's making of a transient, into the caller's stack). In an extension,
  /// so that the memberwise initialiser stays.
  init(uninitialized raw: UnsafeMutableRawPointer, type: Any.Type) {
    self.init(raw: raw, type: type)
  }

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
