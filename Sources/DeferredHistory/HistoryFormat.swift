import Deferred

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The bytes of a stored ``LaunchHistory``: a JSON document, format `deferred.launch-history/2`,
/// written and read with `Codable` (the format: Docs/Design.md, "Launch history").
enum HistoryFormat {
  static let name = "deferred.launch-history"
  static let version = 2
  static var formatName: String { "\(name)/\(version)" }
  /// The largest history read (500 services of 20 launches take about 200 KB).
  static let byteLimit = 8 << 20

  static func encode(_ snapshot: LaunchHistory.Snapshot) -> [UInt8] {
    var milestones: [String: [Int]] = [:]
    for (kind, offsets) in snapshot.milestones {
      milestones[kind.rawValue] = offsets.map(nanoseconds)
    }
    var services: [String: Stored.Service] = [:]
    for (name, costs) in snapshot.services {
      let seen = snapshot.lastSeen[name] ?? snapshot.launches
      services[name] = Stored.Service(
        age: max(0, snapshot.launches - seen), selfNs: costs.map { nanoseconds($0.selfTime) },
        cpuNs: costs.map { $0.cpu.map(nanoseconds) },
        outcomes: String(costs.map { letters[$0.outcome] ?? "b" }))
    }
    let stored = Stored(
      format: formatName, launches: snapshot.launches, milestones: milestones, services: services
    )
    return Array(JSONCoding.data(stored))
  }

  /// Reads `bytes`, keeping at most `window` costs (and milestone offsets) of each, the newest.
  ///
  /// - Returns: The history, or why it cannot be read.
  static func decode(_ bytes: [UInt8], window: Int) -> Result<LaunchHistory.Snapshot, Problem> {
    if bytes.isEmpty { return .failure(Problem("the file is empty")) }
    if bytes.starts(with: "DFLH".utf8) {
      return .failure(Problem("it is format version 1, and this library reads version \(version)"))
    }
    // Keys are sorted: a history this library wrote begins with its format.
    let ours = bytes.starts(with: "{\"format\":\"\(name)/".utf8)
    let stored: Stored
    do {
      stored = try JSONCoding.decode(Stored.self, from: Data(bytes))
    } catch let problem as Problem {
      return .failure(problem)
    } catch {
      guard ours else { return .failure(Problem("it is not a launch history (garbage)")) }
      if let error = error as? JSONError, error.offset != nil {
        return .failure(Problem("it is corrupt (\(error.message))"))
      }
      if JSONCoding.Scan(bytes, stoppingDeeperThan: JSONCoding.depthLimit).isCutShort {
        return .failure(Problem("it is truncated"))
      }
      let message = (error as? JSONError)?.message ?? "\(error)"
      return .failure(Problem("it is corrupt (\(message))"))
    }
    guard let snapshot = stored.snapshot(window: window) else {
      return .failure(Problem("it is corrupt (its contents do not fit together)"))
    }
    return .success(snapshot)
  }

  /// Why a history could not be read: the end of a sentence.
  struct Problem: Error {
    let message: String
    init(_ message: String) { self.message = message }
  }

  private static func nanoseconds(_ duration: Duration) -> Int {
    Int(clamping: duration.nanoseconds)
  }

  fileprivate static let letters: [BuildRecord.Outcome: Character] = [
    .built: "b", .failed: "f", .cancelled: "c",
  ]

  /// The document, as it is stored.
  fileprivate struct Stored: Codable {
    struct Service: Codable {
      var age: Int
      var selfNs: [Int]
      var cpuNs: [Int?]
      var outcomes: String
    }

    var format: String
    var launches: Int
    var milestones: [String: [Int]]
    var services: [String: Service]
  }
}

extension HistoryFormat.Stored {
  private enum CodingKeys: String, CodingKey {
    case format, launches, milestones, services
  }

  /// Reads the format first: a document of another version is named as such, whatever else it
  /// holds.
  init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    format = try values.decode(String.self, forKey: .format)
    guard format == HistoryFormat.formatName else {
      let prefix = HistoryFormat.name + "/"
      if format.hasPrefix(prefix) {
        throw HistoryFormat.Problem(
          "it is format version \(format.dropFirst(prefix.count)), and this library reads"
            + " version \(HistoryFormat.version)")
      }
      throw HistoryFormat.Problem("it is not a launch history (its format is \(format))")
    }
    launches = try values.decode(Int.self, forKey: .launches)
    milestones = try values.decode([String: [Int]].self, forKey: .milestones)
    services = try values.decode([String: Service].self, forKey: .services)
  }

  /// The history it holds, keeping the newest `window` costs of each; `nil` if its parts
  /// do not fit together.
  func snapshot(window: Int) -> LaunchHistory.Snapshot? {
    guard (0...Int(Int32.max)).contains(launches) else { return nil }
    var snapshot = LaunchHistory.Snapshot()
    snapshot.launches = launches
    for (name, offsets) in milestones {
      // A milestone this library does not know is left out.
      guard let kind = Milestone.Kind(rawValue: name) else { continue }
      guard offsets.allSatisfy({ $0 >= 0 }) else { return nil }
      snapshot.milestones[kind] = offsets.suffix(window).map { .nanoseconds($0) }
    }
    snapshot.services.reserveCapacity(services.count)
    for (name, service) in services {
      let outcomes = service.outcomes.map { letter in
        HistoryFormat.letters.first { $0.value == letter }?.key
      }
      guard (0...launches).contains(service.age), service.cpuNs.count == service.selfNs.count,
        outcomes.count == service.selfNs.count, !outcomes.contains(nil),
        service.selfNs.allSatisfy({ $0 >= 0 }), service.cpuNs.allSatisfy({ ($0 ?? 0) >= 0 })
      else { return nil }
      var costs: [LaunchHistory.Cost] = []
      costs.reserveCapacity(min(window, outcomes.count))
      for index in outcomes.indices.suffix(window) {
        guard let outcome = outcomes[index] else { continue }
        costs.append(
          LaunchHistory.Cost(
            selfTime: .nanoseconds(service.selfNs[index]),
            cpu: service.cpuNs[index].map { .nanoseconds($0) }, outcome: outcome))
      }
      snapshot.services[name] = costs
      snapshot.lastSeen[name] = launches - service.age
    }
    return snapshot
  }
}
