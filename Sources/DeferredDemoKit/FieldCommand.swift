import Deferred
import DeferredMetricKit
import DeferredReports

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension DemoCommand {
  /// `field`: a deferred launch of the demo app in this process, and MetricKit payloads from
  /// the field joined to it.
  static func field(_ options: FieldOptions, isolation: isolated (any Actor)? = #isolation)
    async throws
  {
    let paths = options.payloads.isEmpty ? FieldRun.fixturePayloads : options.payloads
    let payloads = try FieldRun.read(paths)
    let workload = Workload(scale: options.slowdown)
    let directory = try Files.makeTemporaryDirectory(prefix: "deferred-demo-field")
    defer { Files.remove(directory) }
    let files = try AppFiles.install(in: directory, workload: workload)
    let outcome = try await LaunchSession(
      mode: .deferred, files: files, workload: workload, screen: Screen(.none)
    ).run()
    let field = FieldReport(payloads: payloads, local: outcome.report)
    if options.json {
      Terminal.write(field.json() + "\n")
    } else {
      Terminal.write(FieldRun.text(field, paths: paths))
    }
  }
}

/// The `field` command's parts: reading payload files, and the joined report as text.
public enum FieldRun {
  /// The fixtures' two days, from the package's root.
  public static let fixturePayloads = [
    "Tests/DeferredMetricKitTests/Fixtures/metric-payload-day1.json",
    "Tests/DeferredMetricKitTests/Fixtures/metric-payload-day2.json",
  ]

  /// The payloads in the files at `paths`, in order.
  ///
  /// - Parameter paths: Payload files: each one payload, or an array of them.
  /// - Returns: Every payload.
  /// - Throws: ``DemoError`` naming the file that cannot be read, or whose payload is not one.
  public static func read(_ paths: [String]) throws(DemoError) -> [FieldPayload] {
    var payloads: [FieldPayload] = []
    for path in paths {
      let bytes: [UInt8]
      do {
        bytes = try Files.read(path)
      } catch {
        throw DemoError(
          "\(error) (the fixtures are in Tests/DeferredMetricKitTests/Fixtures: run field from"
            + " the package's root, or pass --payload FILE)")
      }
      do {
        payloads += try FieldPayload.read(Data(bytes))
      } catch {
        throw DemoError("\(path): \(error)")
      }
    }
    return payloads
  }

  /// The field report beside the demo's own launch: which payloads, the launch's two times,
  /// then the joined table.
  ///
  /// - Parameters:
  ///   - field: The field report, joined to the demo's launch.
  ///   - paths: The payload files it read.
  /// - Returns: The text.
  public static func text(_ field: FieldReport, paths: [String]) -> String {
    var text = "Field data against this launch\n"
    text += "  payloads:   \(paths.joined(separator: ", "))\n"
    text += "  this device: the demo app's deferred launch, just now, in this process\n"
    if let local = field.local { text += DemoCommand.summary(of: local) }
    return text + "\n" + field.text()
  }
}
