/// Identifies a collection: services contributed one by one (plug-ins, launch handlers,
/// analytics sinks), resolved together as an array in the order they were contributed.
///
/// The collection is a service of type `[Element]`: a factory may declare it as a parameter.
///
/// ```swift
/// let sinks = CollectionKey<any AnalyticsSink>()
/// try container.contribute(to: sinks, priority: .critical) { ConsoleSink() }
/// try container.contribute(to: sinks) { (network: Network) in RemoteSink(network: network) }
/// try container.register(Analytics.self) { (sinks: [any AnalyticsSink]) in Analytics(sinks) }
/// ```
public struct CollectionKey<Element: Sendable>: Hashable, Sendable, CustomStringConvertible {
  /// The name that tells apart several collections of one element type, or `nil`.
  public let name: String?

  /// Creates the key of a collection of `Element`s.
  ///
  /// - Parameters:
  ///   - element: The elements' type; it may be left out where the compiler can infer it.
  ///   - name: A name that tells apart several collections of one element type.
  public init(_ element: Element.Type = Element.self, name: String? = nil) {
    self.name = name
  }

  /// The collection as a service: its key, of type `[Element]`.
  ///
  /// ```swift
  /// let all: [any AnalyticsSink] = try container.resolve(sinks.service)
  /// ```
  public var service: ServiceKey<[Element]> { ServiceKey(name: name) }

  /// How the key is shown in errors and reports, as its service's key (`Array<Int>`).
  public var description: String { service.description }
}

/// The value type of a collection member's node: its own, never a service of the element's.
struct CollectionMember<Element: Sendable>: Sendable, DescribedKeyType {
  let value: Element

  /// `Element #2 of Array<Element>["name"]`: the member's position and the collection.
  static func keyDescription(name: String?) -> String {
    let name = name ?? ""
    let mark = name.lastIndex(of: "#") ?? name.endIndex
    let collection = name[..<mark].isEmpty ? nil : String(name[..<mark])
    return "\(Element.self) #\(name[mark...].dropFirst()) of "
      + ServiceKey<[Element]>(name: collection).description
  }
}
