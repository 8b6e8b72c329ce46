/// What a container knows, behind its lock: its own registrations, the nodes it built anew for
/// registrations it inherits, and its lookup table, live and published.
struct Registry {
  /// Inherited registrations this container builds itself, because they depend on one of its
  /// own registrations. Kept for the container's life, so that none is ever built twice.
  var copies: [AnyServiceKey: AnyNode] = [:]
  /// The live table: the own registrations, then the copies. A child makes its copies only
  /// once it has published its table, and registers nothing after that, so the table's nodes,
  /// in the order their keys were first set, are the own registrations first.
  var table = LookupTable()
  /// Own registrations left out of ``ordered``: a collection's member whose contribution was
  /// refused, and whatever replaces it. Nearly always empty.
  private var unlisted: Set<AnyServiceKey> = []
  /// Bumped on every change of `table`.
  private var version = 0
  /// Every table published, the current one last: a lock-free reader may still hold one. A
  /// table is published again only once the live one holds twice the keys, or its lookups
  /// have missed the published one as many times as it has slots, so together they hold a
  /// few times the live table's slots at most.
  private(set) var retired: [LookupSnapshot] = []
  /// Whether the live table is the one published last, sharing its storage.
  private var isPublished = false
  /// Lookups that missed the published table since it was published.
  private var missedLookups = 0
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

  /// Registrations made in this container, in registration order (a replacement takes the
  /// place of the node it replaced): the table's nodes before its copies, less the unlisted.
  var ordered: [AnyNode] {
    let own = table.count - copies.count
    var nodes = own == table.count ? table.nodes : Array(table.nodes.prefix(own))
    if !unlisted.isEmpty { nodes.removeAll { unlisted.contains($0.key) } }
    return nodes
  }

  /// Leaves the registration of `key` out of ``ordered``, for good: it stays in the table.
  mutating func unlist(_ key: AnyServiceKey) {
    unlisted.insert(key)
  }

  /// Puts `node` in the live table; a node replaced in a published table is replaced there at
  /// once (a handle or a lookup then finds the new one).
  ///
  /// - Returns: The node the key had in the table, if it had one.
  @discardableResult
  mutating func insert(_ node: AnyNode, publishingTo container: Container) -> AnyNode? {
    let (index, existing) = insertIfNew(node)
    guard existing != nil else { return nil }
    return replace(at: index, with: node, publishingTo: container)
  }

  /// Sets `node` in the live table if its key is new there, making room for it first;
  /// otherwise leaves the table as it is.
  ///
  /// - Returns: The key's slot, and the node it has if it was set already.
  @inline(__always)
  mutating func insertIfNew(_ node: AnyNode) -> (index: Int, existing: AnyNode?) {
    // A table more than half full is replaced by a bigger one; a table published as it
    // is, by a copy of its own.
    if !table.hasRoom {
      table.grow()
    } else if isPublished {
      table.rebuild(capacity: table.capacity)
    }
    isPublished = false
    let inserted = table.insert(node)
    if inserted.existing == nil { version += 1 }
    return inserted
  }

  /// Puts `node` in the place of the node of the live table's slot `index`, which has its key
  /// (``insertIfNew(_:)``), and publishes the table at once if a table was published.
  ///
  /// - Returns: The node replaced.
  @discardableResult
  mutating func replace(at index: Int, with node: AnyNode, publishingTo container: Container)
    -> AnyNode
  {
    version += 1
    let replaced = table.replace(at: index, with: node)
    if !retired.isEmpty { publish(to: container) }
    return replaced
  }

  /// Notes a lookup that missed the published table, and publishes the live one if it has
  /// changed since and has twice the keys, or enough lookups have missed it.
  mutating func lookedUp(publishingTo container: Container) {
    guard let last = retired.last else { return publish(to: container) }
    if last.version == version { return }
    missedLookups += 1
    if table.count >= 2 * last.table.count || missedLookups >= table.capacity {
      publish(to: container)
    }
  }

  /// Every table published, and the live one if it has changed since (until then the last
  /// published one shares its storage).
  var retainedTables: [LookupTable] {
    let published = retired.map(\.table)
    return retired.last?.version == version ? published : published + [table]
  }

  /// Publishes the live table: from now on lookups read it without the lock.
  mutating func publish(to container: Container) {
    guard !isShutDown, retired.last?.version != version else { return }
    let snapshot = LookupSnapshot(table: table, version: version)
    retired.append(snapshot)
    isPublished = true
    container.published.store(snapshot)
    missedLookups = 0
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
  ///
  /// Each weak reference is loaded once: a child may be freed on another thread at any moment,
  /// and a lazy `compactMap(...).first` loads the reference it found a second time, then unwraps
  /// it (a trap if the child went in between).
  var livePublishedChild: Container? {
    for child in publishedChildren {
      if let container = child.container { return container }
    }
    return nil
  }
}

/// A container, not kept alive.
struct WeakContainer {
  weak var container: Container?
}

/// A lookup table as published: immutable, read without a lock.
final class LookupSnapshot: Sendable {
  let table: LookupTable
  /// The registry's version of the table.
  let version: Int

  init(table: LookupTable, version: Int) {
    self.table = table
    self.version = version
  }

  /// The node registered for the type with metadata address `type` and `name`.
  @inline(__always)
  func find(_ type: UInt, _ name: String?, _ nameHash: UInt) -> AnyNode? {
    table.find(type, name, nameHash)
  }

}
