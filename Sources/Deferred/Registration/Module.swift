#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A feature's registrations, together: installed into a container in one call.
///
/// Registrations a module makes remember it: ``Container/validate()`` names the module of each
/// problem (``ValidationIssue/module``).
///
/// ```swift
/// struct Sync: Module {
///   func register(in container: Container) throws(DeferredError) {
///     try container.register(SyncService.self, SyncService.init(storage:network:))
///   }
/// }
/// try container.install(Persistence(), Sync())
/// ```
public protocol Module {
  /// The module's name, as ``Container/validate()`` shows it; the type's name by default.
  var name: String { get }

  /// Registers the feature's services in `container`.
  ///
  /// - Parameter container: The container the module is installed into.
  /// - Throws: What a registration throws.
  func register(in container: Container) throws(DeferredError)
}

extension Module {
  /// The type's name, such as `Sync`.
  public var name: String { String(describing: Self.self) }
}

extension Container {
  /// Installs `modules`, in order: each registers its services, which remember it.
  ///
  /// Installing only registers: it runs nothing. A module may install others; their
  /// registrations remember the innermost.
  ///
  /// ```swift
  /// try container.install(Persistence(), Networking(), Sync())
  /// ```
  ///
  /// - Parameter modules: The modules.
  /// - Throws: The first ``DeferredError`` a module's registration throws; the modules before
  ///   it stay installed.
  public func install(_ modules: any Module...) throws(DeferredError) {
    try install(modules)
  }

  /// Installs an array of modules, in order, as the variadic form does.
  ///
  /// - Parameter modules: The modules.
  /// - Throws: The first ``DeferredError`` a module's registration throws.
  public func install(_ modules: [any Module]) throws(DeferredError) {
    for module in modules {
      let installing = Installing(module: module.name, thread: currentThreadID())
      registry.withLock { $0.installing.append(installing) }
      defer {
        registry.withLock { registry in
          if let index = registry.installing.lastIndex(where: {
            $0.module == installing.module && $0.thread == installing.thread
          }) {
            registry.installing.remove(at: index)
          }
        }
      }
      try module.register(in: self)
    }
  }

  /// The module that registered the service `key`, if a module did.
  ///
  /// ```swift
  /// #expect(container.module(of: ServiceKey<SyncService>()) == "Sync")
  /// ```
  ///
  /// - Parameter key: The service's key.
  /// - Returns: The module's name, or `nil`.
  public func module<Value: Sendable>(of key: ServiceKey<Value>) -> String? {
    note(for: key.erased)?.module
  }
}
