/// The weak scope of a service whose type is a class: `scope: .weak`, which the compiler
/// accepts only where the registered type is one.
///
/// A weak service is built on first need and shared while anything outside the container
/// holds it, then built anew (``Scope/weakObject``). The container keeps only a weak
/// reference, which holds only objects, so the forms that take this scope are those whose
/// `Value` is a class (`Value: AnyObject`):
///
/// ```swift
/// try container.register(ImageCache.self, scope: .weak) { ImageCache() }
/// ```
///
/// For a struct or an enum, `scope: .weak` does not compile, and the compiler says what to do.
/// Swift does not let a protocol existential (`any Editor`) be a generic `AnyObject`, even
/// where the protocol is bound to classes; such a service is registered with
/// ``Scope/weakObject``, which checks at registration that its values are objects:
///
/// ```swift
/// try container.register((any Editor).self, scope: .weakObject) { EditorModel() }
/// ```
public struct WeakScope: Sendable, Hashable {
  /// Creates the weak scope: `.weak`.
  @inlinable init() {}

  /// Built on first need and shared while anything outside the container holds it; built
  /// anew once the last holder lets it go (``Scope/weakObject``).
  @inlinable public static var weak: WeakScope { WeakScope() }
}
