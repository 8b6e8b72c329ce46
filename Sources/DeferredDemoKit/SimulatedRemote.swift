import Deferred

/// The server the app syncs with, simulated in the process: its answers are computed here, and
/// only its latency is simulated, with `Task.sleep`.
public final class SimulatedRemote: Sendable {
  private struct State {
    var roundTrips = 0
    var received: [Edit] = []
  }

  /// One simulated round trip.
  public let latency: Duration
  /// The session key agreed at connection.
  let sessionKey: UInt64
  private let state = Locked(State())

  /// Connects: derives the session key (key stretching, real work).
  ///
  /// - Parameter workload: How much work to do, and the simulated latency.
  public init(workload: Workload) {
    latency = workload.latency
    var key: UInt64 = 0x5EED
    for round in 0..<workload.count(150_000) {
      key = fnv1a(
        [UInt8(truncatingIfNeeded: key), UInt8(truncatingIfNeeded: key >> 29)], seed: key)
      key ^= UInt64(round) &* 0x9E37_79B9_7F4A_7C15
    }
    sessionKey = key
  }

  /// Waits one round trip: the simulated latency.
  public func roundTrip() async {
    state.withLock { $0.roundTrips += 1 }
    guard latency > .zero else { return }
    try? await Task.sleep(for: latency)
  }

  /// How many round trips have been made.
  public var roundTrips: Int { state.withLock { $0.roundTrips } }

  /// The latency simulated so far, all round trips together.
  public var simulatedLatency: Duration { latency * roundTrips }

  /// The edits the remote has received, in order.
  public var received: [Edit] { state.withLock { $0.received } }

  /// Receives an edit.
  func receive(_ edit: Edit) {
    state.withLock { $0.received.append(edit) }
  }

  /// The remote's fingerprints of the journal's records: the same as the local ones except
  /// for the records changed on another device (one in 97).
  func fingerprints(matching local: [UInt64]) -> [UInt64] {
    local.enumerated().map { index, hash in index % 97 == 41 ? hash ^ sessionKey : hash }
  }

  /// The remote's current configuration: one version ahead of `settings`.
  func configuration(after settings: Settings) -> String {
    var newer = settings
    newer.version += 1
    newer.precision = 12
    return newer.text
  }
}
