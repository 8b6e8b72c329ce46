/// The bytes of a stored ``LaunchHistory``: format version 1 (Docs/Design.md, "Launch
/// history").
///
/// ```
/// "DFLH"  version: u8 = 1  length: u32 LE (the whole file)
/// launches: varint
/// milestones: varint count, each: kind u8 (Milestone.Kind's index), n: varint, n × offsetNs
/// services: varint count, each: name (varint length, UTF-8), age: varint (launches since it was
///   last recorded), n: varint, n × (selfNs << 2 | outcome: varint, cpuNs + 1 or 0: varint)
/// checksum: u32 LE, FNV-1a of every byte before it
/// ```
///
/// Varints are unsigned LEB128. Costs are oldest first; services sorted by name.
enum HistoryFormat {
  static let magic: [UInt8] = Array("DFLH".utf8)
  static let version: UInt8 = 1
  /// The largest history read: 500 services of 20 launches take about 100 KB.
  static let byteLimit = 8 << 20
  private static let headerSize = 9
  private static let outcomes = BuildRecord.Outcome.allCases
  private static let kinds = Milestone.Kind.allCases

  static func encode(_ snapshot: LaunchHistory.Snapshot) -> [UInt8] {
    var bytes = magic
    bytes.append(version)
    bytes += [0, 0, 0, 0]
    bytes.reserveCapacity(64 + snapshot.services.count * 128)
    appendVarint(UInt64(snapshot.launches), to: &bytes)
    let milestones = kinds.compactMap { kind in snapshot.milestones[kind].map { (kind, $0) } }
    appendVarint(UInt64(milestones.count), to: &bytes)
    for (kind, offsets) in milestones {
      bytes.append(UInt8(kinds.firstIndex(of: kind) ?? 0))
      appendVarint(UInt64(offsets.count), to: &bytes)
      for offset in offsets { appendVarint(nanoseconds(offset), to: &bytes) }
    }
    appendVarint(UInt64(snapshot.services.count), to: &bytes)
    for (name, costs) in snapshot.services.sorted(by: { $0.key < $1.key }) {
      let utf8 = Array(name.utf8)
      appendVarint(UInt64(utf8.count), to: &bytes)
      bytes += utf8
      let seen = snapshot.lastSeen[name] ?? snapshot.launches
      appendVarint(UInt64(max(0, snapshot.launches - seen)), to: &bytes)
      appendVarint(UInt64(costs.count), to: &bytes)
      for cost in costs {
        let outcome = UInt64(outcomes.firstIndex(of: cost.outcome) ?? 0)
        appendVarint(min(nanoseconds(cost.selfTime), UInt64(1) << 61) << 2 | outcome, to: &bytes)
        appendVarint(cost.cpu.map { min(nanoseconds($0), UInt64.max - 1) + 1 } ?? 0, to: &bytes)
      }
    }
    let length = UInt32(truncatingIfNeeded: bytes.count + 4)
    for index in 0..<4 { bytes[5 + index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
    let sum = checksum(bytes[...])
    for index in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: sum >> (8 * index))) }
    return bytes
  }

  /// Reads `bytes`, keeping at most `window` costs (and milestone offsets) of each, the newest.
  ///
  /// - Returns: The history, or why it cannot be read.
  static func decode(_ bytes: [UInt8], window: Int) -> Result<LaunchHistory.Snapshot, Problem> {
    if bytes.isEmpty { return .failure(Problem("the file is empty")) }
    guard bytes.starts(with: magic.prefix(bytes.count)) else {
      return .failure(Problem("it is not a launch history (garbage)"))
    }
    guard bytes.count >= headerSize else { return .failure(Problem("it is truncated")) }
    guard bytes[4] == version else {
      return .failure(
        Problem("it is format version \(bytes[4]), and this library reads version \(version)"))
    }
    let length = (0..<4).reduce(0) { $0 | Int(bytes[5 + $1]) << (8 * $1) }
    if bytes.count < length { return .failure(Problem("it is truncated")) }
    guard bytes.count == length, length >= headerSize + 4 else {
      return .failure(Problem("it is corrupt (its length is wrong)"))
    }
    let stored = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[length - 4 + $1]) << (8 * $1) }
    guard checksum(bytes[..<(length - 4)]) == stored else {
      return .failure(Problem("it is corrupt (its checksum does not match)"))
    }
    let snapshot = bytes.withUnsafeBufferPointer { buffer in
      var reader = Reader(bytes: buffer, position: headerSize, end: length - 4)
      let snapshot = reader.snapshot(window: window)
      return reader.position == reader.end ? snapshot : nil
    }
    guard let snapshot else {
      return .failure(Problem("it is corrupt (its contents do not parse)"))
    }
    return .success(snapshot)
  }

  /// Why a history could not be read: the end of a sentence.
  struct Problem: Error {
    let message: String
    init(_ message: String) { self.message = message }
  }

  private static func nanoseconds(_ duration: Duration) -> UInt64 {
    UInt64(clamping: duration.nanoseconds)
  }

  private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  /// FNV-1a, 32 bits.
  private static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var hash: UInt32 = 0x811c_9dc5
    for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
    return hash
  }

  /// Reads the bytes between `position` and `end`, which lie inside `bytes`: every read
  /// checks `end` first.
  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    let end: Int

    @inline(__always)
    mutating func varint() -> UInt64? {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while position < end, shift < 64 {
        let byte = bytes[position]
        position += 1
        value |= UInt64(byte & 0x7f) << shift
        if byte < 0x80 { return value }
        shift += 7
      }
      return nil
    }

    /// A count of items each at least `size` bytes long, no more than the bytes left.
    mutating func itemCount(atLeast size: Int) -> Int? {
      guard let value = varint(), value <= UInt64((end - position) / size) else { return nil }
      return Int(value)
    }

    mutating func duration() -> Duration? {
      guard let value = varint(), value <= UInt64(Int64.max) else { return nil }
      return .nanoseconds(Int64(value))
    }

    mutating func snapshot(window: Int) -> LaunchHistory.Snapshot? {
      var snapshot = LaunchHistory.Snapshot()
      guard let launches = varint(), launches <= UInt64(Int32.max),
        let milestoneCount = itemCount(atLeast: 2)
      else { return nil }
      snapshot.launches = Int(launches)
      for _ in 0..<milestoneCount {
        guard position < end, Int(bytes[position]) < kinds.count else { return nil }
        let kind = kinds[Int(bytes[position])]
        position += 1
        guard let count = itemCount(atLeast: 1) else { return nil }
        var offsets: [Duration] = []
        offsets.reserveCapacity(min(count, window))
        for index in 0..<count {
          guard let offset = duration() else { return nil }
          if index >= count - window { offsets.append(offset) }
        }
        snapshot.milestones[kind] = offsets
      }
      guard let serviceCount = itemCount(atLeast: 3) else { return nil }
      snapshot.services.reserveCapacity(serviceCount)
      for _ in 0..<serviceCount {
        guard let length = itemCount(atLeast: 1) else { return nil }
        let utf8 = UnsafeBufferPointer(rebasing: bytes[position..<(position + length)])
        let name = String(decoding: utf8, as: UTF8.self)
        // Invalid UTF-8 decodes with replacement characters: their bytes differ.
        guard name.utf8.elementsEqual(utf8) else { return nil }
        position += length
        guard let age = varint(), age <= launches, let count = itemCount(atLeast: 2) else {
          return nil
        }
        var costs: [LaunchHistory.Cost] = []
        costs.reserveCapacity(min(count, window))
        for index in 0..<count {
          guard let packed = varint(), let cpu = varint(),
            Int(packed & 3) < outcomes.count
          else { return nil }
          guard index >= count - window else { continue }
          costs.append(
            LaunchHistory.Cost(
              selfTime: .nanoseconds(Int64(packed >> 2)),
              cpu: cpu == 0 ? nil : .nanoseconds(Int64(clamping: cpu - 1)),
              outcome: outcomes[Int(packed & 3)]))
        }
        snapshot.services[name] = costs
        snapshot.lastSeen[name] = Int(launches - age)
      }
      return snapshot
    }
  }
}
