/// What a container knows, behind its lock: its own registrations, the nodes it built anew for
/// registrations it inherits, and every lookup table it published.
struct Registry {
  /// Registrations made in this container, and their order.
  var own: [AnyServiceKey: AnyNode] = [:]
  var order: [AnyServiceKey] = []
  /// Inherited registrations this container builds itself, because they depend on one of its
  /// own registrations. Kept across table rebuilds so that none is ever built twice.
  var copies: [AnyServiceKey: AnyNode] = [:]
  /// Every table published, oldest first: lock-free readers may still hold any of them.
  var tables: [LookupTable] = []
  /// The ancestors' generations the newest table was made from.
  var ancestorGenerations: [Int] = []

  /// Set by ``Container/shutDown()``: no table is published any more.
  var isShutDown = false

  var current: LookupTable? { tables.last }
}
