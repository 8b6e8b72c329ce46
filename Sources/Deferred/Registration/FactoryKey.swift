/// Identifies a factory that takes an argument when it is resolved, and carries the types of
/// both: the argument it takes and the value it makes.
///
/// Resolving takes the key and an argument of its type: a wrong argument does not compile.
/// Several arguments are one tuple.
///
/// ```swift
/// let detail = try container.register(DetailModel.self, argument: Int.self) {
///   (id: Int, storage: Storage) in DetailModel(id: id, storage: storage)
/// }
/// let model = try container.resolve(detail, argument: 42)
/// // try container.resolve(detail, argument: "42")  // does not compile: the key wants an Int
/// ```
public struct FactoryKey<Argument, Value: Sendable>: Hashable, Sendable,
  CustomStringConvertible
{
  /// The name that tells apart several argument factories of the same types, or `nil`.
  public let name: String?

  /// Creates the key of an argument factory.
  ///
  /// ```swift
  /// let detail = FactoryKey<Int, DetailModel>(name: "compact")
  /// ```
  ///
  /// - Parameters:
  ///   - value: The type the factory makes; it may be left out where the compiler can infer it.
  ///   - argument: The type of its argument (a tuple for several).
  ///   - name: A name that tells apart several argument factories of the same types.
  public init(
    _ value: Value.Type = Value.self, argument: Argument.Type = Argument.self, name: String? = nil
  ) {
    self.name = name
  }

  /// How the key is shown in errors and reports: the value's type, then the argument's in
  /// parentheses (`DetailModel(Int)`).
  public var description: String { erased.description }

  /// The key of the factory's node.
  var erased: AnyServiceKey { AnyServiceKey(ArgumentFactoryOf<Argument, Value>.self, name: name) }

  /// The key of the singleton that holds its cache, for a factory that caches by argument.
  var cacheKey: AnyServiceKey { AnyServiceKey(ArgumentCache<Argument, Value>.self, name: name) }
}

/// The type an argument factory's node is keyed by: never a value, only a key.
enum ArgumentFactoryOf<Argument, Value>: DescribedKeyType {
  static func keyDescription(name: String?) -> String {
    "\(Value.self)(\(Argument.self))" + (name.map { "[\"\($0)\"]" } ?? "")
  }
}

/// What an argument factory's node is: its key's type says so.
protocol ArgumentFactoryMarker {}
extension ArgumentFactoryOf: ArgumentFactoryMarker {}

extension AnyNode {
  /// Whether this is an argument factory: made only with an argument, never built by the
  /// launch; its priority says when its dependencies are built.
  var takesArgument: Bool { key.type is any ArgumentFactoryMarker.Type }
}
