/// The weak scope of a service whose type is a class: `scope: .weak`, which the compiler
/// accepts only where the registered type is one.
///
/// A weak service is shared while anything outside the container holds it
/// (``Scope/weakObject``).
///
/// ```swift
/// try container.register(ImageCache.self, scope: .weak) { ImageCache() }
/// ```
///
/// A protocol existential (`any Editor`) is never a generic `AnyObject`, even where the
/// protocol is bound to classes: register it with ``Scope/weakObject``.
public struct WeakScope: Sendable, Hashable {
  /// Creates the weak scope: `.weak`.
  @inlinable init() {}

  /// Shared while anything outside the container holds it (``Scope/weakObject``).
  @inlinable public static var weak: WeakScope { WeakScope() }
}
