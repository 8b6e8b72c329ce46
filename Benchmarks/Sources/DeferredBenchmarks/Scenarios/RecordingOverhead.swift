import ChainServices
import Deferred

extension Scenario {
  /// What recording costs: the first resolve of a chain of 1,000 services, with the default
  /// recording (`Deferred`), none, and timings with thread CPU time. The difference to
  /// `recordingOff` is the cost per initializer.
  static let recordingOverhead = Scenario(
    name: "recordingOverhead",
    title: "build a chain of 1,000 services, recording on and off (ns per initializer)",
    rows: {
      let length = 1000
      func row(_ name: String, recording: Recording) -> Row {
        .calibrated(name, operationsPerIteration: length) {
          { iterations in
            let containers = (0..<iterations).map { _ in
              let container = Deferred.Container(recording: recording)
              must { try Chain.registerDeferred(length: length, into: container) }
              return container
            }
            return nanoseconds {
              must {
                for container in containers {
                  blackHole(try Chain.resolveLastDeferred(length: length, from: container))
                }
              }
            }
          }
        }
      }
      return [
        row(Contender.deferred, recording: .timings),
        row("recordingOff", recording: .off),
        row("recordingWithCPU", recording: .timingsAndCPU),
      ]
    })
}
