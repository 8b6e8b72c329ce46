import Deferred
import Dependencies
import Swinject

/// A link of the 10,000-link chain: each is built from the one before it.
final class DeepLink: Sendable {
  let previous: DeepLink?
  init(previous: DeepLink?) { self.previous = previous }
}

/// A chain of 10,000 services, each needing the previous, whose last link is resolved on a
/// thread with a small stack: a container that recurses once per link runs out of stack.
///
/// Deferred and Swinject register one type under 10,000 names. swift-dependencies keys a
/// dependency by type, so it needs 10,000 key types: rather than 10,000 lines of generated
/// source, ``DeepLinkKey`` is generic over the four decimal digits of the link's index, which
/// makes 10,000 distinct types from ten.
enum DeepChain {
  static let length = 10_000

  static func registerDeferred(into container: Deferred.Container) throws(DeferredError) {
    try container.register(deferredKey(0), factory: { DeepLink(previous: nil) })
    for index in 1..<length {
      try container.register(
        deferredKey(index), dependencies: deferredKey(index - 1),
        factory: { DeepLink(previous: $0) })
    }
  }

  static func resolveLastDeferred(from container: Deferred.Container) throws(DeferredError)
    -> DeepLink
  {
    try container.resolve(deferredKey(length - 1))
  }

  static func registerSwinject(into container: Swinject.Container) {
    container.register(DeepLink.self, name: name(0)) { _ in DeepLink(previous: nil) }
      .inObjectScope(.container)
    for index in 1..<length {
      let previous = name(index - 1)
      container.register(DeepLink.self, name: name(index)) { resolver in
        DeepLink(previous: resolver.resolve(DeepLink.self, name: previous)!)
      }
      .inObjectScope(.container)
    }
  }

  static func resolveLastSwinject(from container: Swinject.Container) -> DeepLink? {
    container.resolve(DeepLink.self, name: name(length - 1))
  }

  static func readLastDependency() -> DeepLink {
    readDeepLink(length - 1)
  }

  private static func deferredKey(_ index: Int) -> ServiceKey<DeepLink> {
    ServiceKey(name: name(index))
  }

  private static func name(_ index: Int) -> String { "link\(index)" }
}

// MARK: - swift-dependencies

/// A decimal digit as a type.
protocol Digit {
  static var value: Int { get }
}

enum Digit0: Digit { static var value: Int { 0 } }
enum Digit1: Digit { static var value: Int { 1 } }
enum Digit2: Digit { static var value: Int { 2 } }
enum Digit3: Digit { static var value: Int { 3 } }
enum Digit4: Digit { static var value: Int { 4 } }
enum Digit5: Digit { static var value: Int { 5 } }
enum Digit6: Digit { static var value: Int { 6 } }
enum Digit7: Digit { static var value: Int { 7 } }
enum Digit8: Digit { static var value: Int { 8 } }
enum Digit9: Digit { static var value: Int { 9 } }

private func digit(_ value: Int) -> any Digit.Type {
  switch value {
  case 0: Digit0.self
  case 1: Digit1.self
  case 2: Digit2.self
  case 3: Digit3.self
  case 4: Digit4.self
  case 5: Digit5.self
  case 6: Digit6.self
  case 7: Digit7.self
  case 8: Digit8.self
  default: Digit9.self
  }
}

/// The key of link `1000 × Thousands + 100 × Hundreds + 10 × Tens + Ones`, whose live value reads
/// the previous link's key.
enum DeepLinkKey<Thousands: Digit, Hundreds: Digit, Tens: Digit, Ones: Digit>: DependencyKey {
  static var liveValue: DeepLink {
    let index = Thousands.value * 1000 + Hundreds.value * 100 + Tens.value * 10 + Ones.value
    return DeepLink(previous: index == 0 ? nil : readDeepLink(index - 1))
  }
}

/// Reads link `index` with `@Dependency`.
private func readDeepLink(_ index: Int) -> DeepLink {
  read(digit(index / 1000), digit(index / 100 % 10), digit(index / 10 % 10), digit(index % 10))
}

private func read<A: Digit, B: Digit, C: Digit, D: Digit>(
  _: A.Type, _: B.Type, _: C.Type, _: D.Type
) -> DeepLink {
  @Dependency(DeepLinkKey<A, B, C, D>.self) var link
  return link
}
