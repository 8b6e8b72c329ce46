/// What a container knows, behind its lock: its own registrations, the nodes it built anew for
/// registrations it inherits, and its lookup table.
struct Registry {
  /// Registrations made in this container, in registration order (a replacement takes the
  /// place of the node it replaced); the table finds them by key.
  var ordered: [AnyNode] = []
  /// Inherited registrations this container builds itself, because they depend on one of its
  /// own registrations. Kept for the container's life, so that none is ever built twice.
  var copies: [AnyServiceKey: AnyNode] = [:]
  /// The live table: the own registrations and the copies, written in place.
  var table = LookupTable()
  /// Tables outgrown: a lock-free reader may still hold one. Each is half its successor's size,
  /// so together they hold fewer slots than the live table.
  var retired: [LookupTable] = []
  /// Nodes replaced by a registration with `replacing: true`: a reader may still hold one.
  var replaced: [AnyNode] = []
  /// Whether the table was published once; a child may not register any more after that.
  var hasPublished = false
  /// In a child: whether it is listed among its parent's published children (it is, before it
  /// first reads the parent's table).
  var listedWithParent = false
  /// Children that have published their tables, and so may hold or share this container's
  /// nodes: while one lives, no registration here may be replaced.
  var publishedChildren: [WeakContainer] = []
  /// How many children may be listed before the dead ones are dropped.
  var publishedChildrenLimit = 8

  /// Set by ``Container/shutDown()``: no table is published any more.
  var isShutDown = false

  /// What is known of some registrations beyond their nodes (module, forward, collection).
  var notes: [AnyServiceKey: RegistrationNote] = [:]
  /// Collections handed out empty, nothing contributed to them here or in an ancestor: a
  /// contribution would change what was handed out, so it is refused.
  var emptyCollectionsHandedOut: Set<AnyServiceKey> = []
  /// Modules being installed, innermost last.
  var installing: [Installing] = []

  /// Puts `node` in the live table (``makeRoom(publishingTo:)`` first).
  ///
  /// - Returns: The node the key had in the table, if it had one.
  @discardableResult
  mutating func insert(_ node: AnyNode, publishingTo container: Container) -> AnyNode? {
    makeRoom(publishingTo: container)
    return table.set(node)
  }

  /// Replaces the live table by one twice its size if one more key would make it more than
  /// half full; a published table is replaced by the new one at once.
  @inline(__always)
  mutating func makeRoom(publishingTo container: Container) {
    guard !table.hasRoom else { return }
    let grown = table.grown()
    retired.append(table)
    table = grown
    if hasPublished && !isShutDown {
      container.published.store(.passUnretained(grown), ordering: .releasing)
    }
  }

  /// Lists `child` as one that has published its table.
  mutating func addPublishedChild(_ child: Container) {
    if publishedChildren.count >= publishedChildrenLimit {
      publishedChildren.removeAll { $0.container == nil }
      publishedChildrenLimit = max(8, publishedChildren.count * 2)
    }
    publishedChildren.append(WeakContainer(container: child))
  }

  /// A live child that has published its table, if there is one.
  var livePublishedChild: Container? {
    publishedChildren.lazy.compactMap(\.container).first
  }
}

/// A container, not kept alive.
struct WeakContainer {
  weak var container: Container?
}
