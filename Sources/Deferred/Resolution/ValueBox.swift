/// How a service's value is kept once made: as one object.
///
/// A value whose type is a class is kept as itself; any other value (a struct, an enum, an
/// existential) in a ``ValueBox``. Nodes are one non-generic class for every service type, so
/// they keep values as `AnyObject`; the resolve that reads one knows the type it looked the
/// service up by, which is the value's type (a node is found by its key, whose type is its
/// value's), and casts it back (``valueOfObject(_:as:)``).
///
/// A box holding a value of any type, for the non-generic code that needs the object inside a
/// weak service's value (``AnyValueBox/object``).
@usableFromInline
class AnyValueBox: @unchecked Sendable {
  /// The boxed value as an object: a class-bound existential's object.
  var object: AnyObject { preconditionFailure("abstract") }
}

/// A value that is not a class instance, as an object.
///
/// Safety: `@unchecked Sendable` as the values it holds are (every service's value is
/// `Sendable`); it is immutable.
@usableFromInline
final class ValueBox<Value>: AnyValueBox, @unchecked Sendable {
  @usableFromInline let value: Value

  @usableFromInline
  init(_ value: consuming Value) {
    self.value = value
  }

  override var object: AnyObject { value as AnyObject }
}

/// `value` as the object it is kept as: itself if `Value` is a class, otherwise a box.
///
/// Safety (Docs/Design.md, "Memory safety"): a class instance is one reference, as an
/// `AnyObject` is; the bit cast only changes the static type, where a dynamic cast (`as
/// AnyObject`) would look up protocol conformances at run time in generic code.
@inlinable @inline(__always)
func objectOfValue<Value>(_ value: consuming Value) -> AnyObject {
  if Value.self is AnyObject.Type { return unsafeBitCast(value, to: AnyObject.self) }
  return ValueBox(value)
}

/// The value kept as `object` (``objectOfValue(_:)``), of `Value`, the type it was made as.
///
/// Safety (Docs/Design.md, "Memory safety"): a node is found by its key, whose type is its
/// value's, so `object` was made by ``objectOfValue(_:)`` from a `Value`: an instance of the
/// class `Value`, or a `ValueBox<Value>` (which `unsafeDowncast` checks in debug builds).
@inlinable @inline(__always)
func valueOfObject<Value>(_ object: AnyObject, as _: Value.Type) -> Value {
  if Value.self is AnyObject.Type { return unsafeBitCast(object, to: Value.self) }
  return unsafeDowncast(object, to: ValueBox<Value>.self).value
}

/// A held service's value as handed to the one who resolves it: a generation's value (its
/// object, ``objectOfValue(_:)``), or a weak service's object, retained.
enum Held: @unchecked Sendable {
  case value(AnyObject)
  case object(AnyObject)

  /// The value, as `Value`, the type of the service's key.
  func read<Value>(as _: Value.Type) -> Value {
    switch self {
    case .value(let object): return valueOfObject(object, as: Value.self)
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
final class WeakObject {
  weak var object: AnyObject?

  init(object: AnyObject) {
    self.object = object
  }
}

/// The object inside a weak service's value (``objectOfValue(_:)``): the value itself, or the
/// object of a class-bound existential in its box.
func weakObject(of value: AnyObject) -> AnyObject {
  (value as? AnyValueBox)?.object ?? value
}

/// Whether values of `type` are objects, which a weak reference can hold: a class, or an
/// existential whose protocols are bound to classes (`any P` where `P: AnyObject`).
///
/// Swift does not let `any P` satisfy an `AnyObject` generic constraint even when `P` is
/// class-bound, so the check is at run time: a class is an `AnyObject.Type`; an existential is
/// told apart by its metadata (the runtime's stable layout of existential type metadata):
/// - an existential (kind 0x303) by its flags' class-constraint bit, clear for a class-bound
///   one;
/// - a constrained existential (`any P<Int>`, kind 0x307) by its shape, which its metadata
///   points to: the special kind in the low byte of the shape's flags is 1 (class) for a
///   class-bound one.
func isObjectType(_ type: Any.Type) -> Bool {
  if type is AnyObject.Type { return true }
  let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
  let existentialKind = 0x303
  let extendedExistentialKind = 0x307
  switch metadata.load(as: Int.self) {
  case existentialKind:
    let flags = metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: UInt32.self)
    let anyConstraint: UInt32 = 0x8000_0000
    return flags & anyConstraint == 0
  case extendedExistentialKind:
    let shape = metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: UnsafeRawPointer.self)
    let specialKind = shape.load(as: UInt32.self) & 0xFF
    let classKind: UInt32 = 1
    return specialKind == classKind
  default:
    return false
  }
}

/// A value's object handed across an isolation boundary: made as a `Sendable` value
/// (``objectOfValue(_:)``), which every service's value is.
struct SendableObject: @unchecked Sendable {
  let object: AnyObject

  init(_ object: AnyObject) {
    self.object = object
  }
}
