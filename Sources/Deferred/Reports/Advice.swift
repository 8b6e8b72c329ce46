/// A change to a launch worth making, with what it is estimated to save: one item of a
/// ``LaunchReport``'s ``LaunchReport/advice``.
///
/// Advice is worked out from the report's facts alone (``LaunchReport/advise()``), so a report
/// read back from JSON gives the same advice. Each estimate is what the report shows the change
/// would move, no more: deferring a critical service saves the first frame only the time its
/// build took on the thread that called `launch()`.
public struct Advice: Sendable, Hashable, CustomStringConvertible {
  /// The kind of change.
  public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A critical service that nothing handed out before the first frame needed: defer it
    /// (``Advice/suggestion`` is `afterFirstFrame`, or `onDemand` if nothing used it at all).
    case deferCritical
    /// A service the app resolved before the first frame, built on demand on the way to it
    /// while the main thread built nothing else: if the first frame does not show it, resolve
    /// it after ``Container/firstFrameDrawn()`` or give it `afterFirstFrame`.
    case deferFirstFrameBuild
    /// The main thread waited for the service, built on another thread, before the first frame
    /// or while the launch was still under way: give it `userInitiated`, or make it critical.
    case raisePriority
    /// A deferred service built in the background that nothing used: make it `onDemand`.
    case makeOnDemand
    /// The chain of dependencies built before the first frame whose builds took longest in
    /// all, where builds on it took longer than a frame: shorten those builds (``Advice/chain``
    /// names the chain; there is no priority to suggest).
    case criticalChain
  }

  /// What an estimated saving shortens.
  public enum Effect: String, Sendable, Hashable, CaseIterable, Codable {
    /// The time to the first frame.
    case firstFrame
    /// The main thread's time blocked after the first frame: touches and frames waiting.
    case mainThread
    /// Work done in the background for nothing: CPU time and energy, not a wait.
    case background
  }

  /// The kind of change.
  public var kind: Kind
  /// The service it is about (for a chain, its first service: the one built last).
  public var service: String
  /// The service's priority in the launch the advice comes from.
  public var priority: Priority?
  /// The priority to give it instead, if the change is one of priority.
  public var suggestion: Priority?
  /// The estimated saving.
  public var saving: Duration
  /// What the saving shortens.
  public var effect: Effect
  /// What the change costs elsewhere, where it has a cost: making a service critical adds its
  /// build to the time before the first frame.
  public var cost: Duration?
  /// For ``Kind/criticalChain``: the chain, each service needing the next.
  public var chain: [String]
  /// The advice in a sentence or two: what the report shows, and what to change.
  public var detail: String

  /// Creates an item of advice.
  ///
  /// - Parameters:
  ///   - kind: The kind of change.
  ///   - service: The service it is about.
  ///   - priority: Its priority in the launch.
  ///   - suggestion: The priority to give it instead.
  ///   - saving: The estimated saving.
  ///   - effect: What the saving shortens.
  ///   - cost: What the change costs elsewhere.
  ///   - chain: For a critical chain: its services.
  ///   - detail: What to change, and why.
  public init(
    kind: Kind, service: String, priority: Priority? = nil, suggestion: Priority? = nil,
    saving: Duration, effect: Effect, cost: Duration? = nil, chain: [String] = [],
    detail: String
  ) {
    self.kind = kind
    self.service = service
    self.priority = priority
    self.suggestion = suggestion
    self.saving = saving
    self.effect = effect
    self.cost = cost
    self.chain = chain
    self.detail = detail
  }

  /// The advice in a sentence or two.
  public var description: String { detail }
}

extension Advice: Codable {
  private enum CodingKeys: String, CodingKey {
    case kind, service, priority, idleDelayNs, suggestion, suggestionIdleDelayNs, savingNs,
      effect, costNs, chain, detail
  }

  /// Reads an item of advice in the shape of the report's JSON schema.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a missing field or a value of the wrong kind.
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      kind: try values.decode(Kind.self, forKey: .kind),
      service: try values.decode(String.self, forKey: .service),
      priority: try values.decodePriorityIfPresent(forKey: .priority, delayKey: .idleDelayNs),
      suggestion: try values.decodePriorityIfPresent(
        forKey: .suggestion, delayKey: .suggestionIdleDelayNs),
      saving: try values.decodeNanoseconds(forKey: .savingNs),
      effect: try values.decode(Effect.self, forKey: .effect),
      cost: try values.decodeNanosecondsIfPresent(forKey: .costNs),
      chain: try values.decodeIfPresent([String].self, forKey: .chain) ?? [],
      detail: try values.decode(String.self, forKey: .detail))
  }

  /// Writes the item in the shape of the report's JSON schema.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var values = encoder.container(keyedBy: CodingKeys.self)
    try values.encode(kind, forKey: .kind)
    try values.encode(service, forKey: .service)
    try values.encodePriority(priority, forKey: .priority, delayKey: .idleDelayNs)
    try values.encodePriority(
      suggestion, forKey: .suggestion, delayKey: .suggestionIdleDelayNs)
    try values.encodeNanoseconds(saving, forKey: .savingNs)
    try values.encode(effect, forKey: .effect)
    try values.encodeNanoseconds(cost, forKey: .costNs)
    try values.encode(chain, forKey: .chain)
    try values.encode(detail, forKey: .detail)
  }
}

extension Advice.Effect {
  /// What the saving shortens, in words.
  package var title: String {
    switch self {
    case .firstFrame: "first frame"
    case .mainThread: "main thread blocked"
    case .background: "background work"
    }
  }
}
