/// How the report types store a `Duration` in JSON: whole nanoseconds, an integer.
extension Duration {
  /// A duration of `nanoseconds`, as the container records and reports store them.
  package init(nanoseconds: UInt64) {
    self = .nanoseconds(Int64(clamping: nanoseconds))
  }

  /// The duration in whole nanoseconds as a JSON integer (negative durations count as zero).
  var jsonNanoseconds: Int64 { Int64(clamping: nanoseconds) }
}

extension KeyedEncodingContainer {
  /// Writes `duration` as whole nanoseconds.
  mutating func encodeNanoseconds(_ duration: Duration, forKey key: Key) throws {
    try encode(duration.jsonNanoseconds, forKey: key)
  }

  /// Writes `duration` as whole nanoseconds, or `null`.
  mutating func encodeNanoseconds(_ duration: Duration?, forKey key: Key) throws {
    try encode(duration?.jsonNanoseconds, forKey: key)
  }

  /// Writes `duration` as whole nanoseconds, or nothing at all.
  mutating func encodeNanosecondsIfPresent(_ duration: Duration?, forKey key: Key) throws {
    try encodeIfPresent(duration?.jsonNanoseconds, forKey: key)
  }

  /// Writes `priority` by name (or `null`), and an idle priority's exact delay under `delayKey`.
  mutating func encodePriority(_ priority: Priority?, forKey key: Key, delayKey: Key) throws {
    try encode(priority?.description, forKey: key)
    try encodeNanosecondsIfPresent(priority?.idleDelay, forKey: delayKey)
  }
}

extension KeyedDecodingContainer {
  /// Reads whole nanoseconds as a duration.
  func decodeNanoseconds(forKey key: Key) throws -> Duration {
    Duration(nanoseconds: try decode(UInt64.self, forKey: key))
  }

  /// Reads whole nanoseconds as a duration, if the field is there and not `null`.
  func decodeNanosecondsIfPresent(forKey key: Key) throws -> Duration? {
    try decodeIfPresent(UInt64.self, forKey: key).map(Duration.init(nanoseconds:))
  }

  /// Reads a priority as `encodePriority(_:forKey:delayKey:)` writes it.
  func decodePriority(forKey key: Key, delayKey: Key) throws -> Priority {
    try priority(named: decode(String.self, forKey: key), forKey: key, delayKey: delayKey)
  }

  /// `decodePriority(forKey:delayKey:)`, if the field is there and not `null`.
  func decodePriorityIfPresent(forKey key: Key, delayKey: Key) throws -> Priority? {
    guard let name = try decodeIfPresent(String.self, forKey: key) else { return nil }
    return try priority(named: name, forKey: key, delayKey: delayKey)
  }

  private func priority(named name: String, forKey key: Key, delayKey: Key) throws -> Priority {
    let delay = try decodeNanosecondsIfPresent(forKey: delayKey)
    guard let priority = Priority(reportName: name, idleDelay: delay) else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self, debugDescription: "not a priority: \(name)")
    }
    return priority
  }
}

/// `12.34 ms`: a duration, as the reports print it.
package func milliseconds(_ duration: Duration) -> String {
  milliseconds(duration.nanoseconds)
}
