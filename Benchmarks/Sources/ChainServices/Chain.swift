import Deferred
import Dependencies
import Swinject

/// A chain of distinct service types, `Chain0 ← Chain1 ← … ← Chain999`, each built from the
/// one before it, in each container's own form.
///
/// Chains are registered and resolved from the first link on, in whole chunks of
/// ``chunk`` links, up to ``maxLength``.
public enum Chain {
  /// The longest chain there are types for.
  public static let maxLength = chainMaxLength
  /// Chain lengths must be a multiple of this.
  public static let chunk = chainChunk
  /// The longest chain registered in the resolver form and in the hand-written container.
  public static let coldLength = chainColdLength

  /// Registers links `0..<length` as Deferred singletons, each declaring the previous one as
  /// its factory's parameter.
  public static func registerDeferred(
    length: Int, into container: Deferred.Container
  ) throws(DeferredError) {
    for register in deferredChainChunks.prefix(chunks(length)) { try register(container) }
  }

  /// Resolves link `length - 1`, building the chain below it if need be.
  public static func resolveLastDeferred(
    length: Int, from container: Deferred.Container
  ) throws(DeferredError) -> AnyObject {
    try resolveDeferredChainLast(container, length: length)
  }

  /// Registers links `0..<length` (up to ``coldLength``) as Deferred singletons in the
  /// resolver form: each factory resolves the previous link itself.
  public static func registerDeferredResolver(
    length: Int, into container: Deferred.Container
  ) throws(DeferredError) {
    precondition(length <= coldLength, "no resolver-form chain of \(length)")
    for register in deferredResolverChainChunks.prefix(chunks(length)) { try register(container) }
  }

  /// Registers links `0..<length` (up to ``coldLength``) into a ``HandWrittenContainer``,
  /// each factory resolving the previous link.
  public static func registerHandWritten(length: Int, into container: HandWrittenContainer) {
    precondition(length <= coldLength, "no hand-written chain of \(length)")
    for register in handWrittenChainChunks.prefix(chunks(length)) { register(container) }
  }

  /// Resolves link `length - 1` (up to ``coldLength``) from a ``HandWrittenContainer``,
  /// building the chain below it if need be.
  public static func resolveLastHandWritten(
    length: Int, from container: HandWrittenContainer
  ) -> AnyObject {
    precondition(length <= coldLength, "no hand-written chain of \(length)")
    return resolveHandWrittenChainLast(container, length: length)
  }

  /// Registers links `0..<length` as Swinject `.container` services, each resolving the
  /// previous one in its factory.
  public static func registerSwinject(length: Int, into container: Swinject.Container) {
    for register in swinjectChainChunks.prefix(chunks(length)) { register(container) }
  }

  /// Resolves link `length - 1`, or `nil` if Swinject cannot.
  public static func resolveLastSwinject(
    length: Int, from container: Swinject.Container
  ) -> AnyObject? {
    resolveSwinjectChainLast(container, length: length)
  }

  /// Reads link `length - 1` with `@Dependency`, computing the links below it (each link's
  /// `liveValue` reads the previous one) unless the current `DependencyValues` has them cached.
  public static func readLastDependency(length: Int) -> AnyObject {
    readDependencyChainLast(length: length)
  }

  private static func chunks(_ length: Int) -> Int {
    precondition(
      length > 0 && length <= maxLength && length % chunk == 0,
      "chain length \(length) is not a multiple of \(chunk) up to \(maxLength)")
    return length / chunk
  }
}
