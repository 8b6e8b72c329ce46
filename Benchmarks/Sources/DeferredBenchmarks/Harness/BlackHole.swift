import Synchronization

/// Never equal to an object's address (objects are aligned), but the optimiser cannot know.
private let sentinel = Atomic<UInt>(1)

/// Consumes `object` so that the work producing it cannot be optimised away.
///
/// The comparison against an atomic the compiler cannot see through makes the call observable;
/// it only reads shared memory, so threads calling it at once do not contend.
@inline(never)
func blackHole(_ object: AnyObject) {
  if UInt(bitPattern: ObjectIdentifier(object)) == sentinel.load(ordering: .relaxed) {
    print(object)
  }
}

/// Consumes an optional object, as ``blackHole(_:)`` does.
@inline(never)
func blackHole(_ object: AnyObject?) {
  if let object { blackHole(object) }
}
