#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension LaunchReport {
  /// The schema name and version written in every report (`"schema"`).
  public static let jsonSchema = "deferred.launch-report/1"

  /// The whole report as JSON, in the documented schema `deferred.launch-report/1`
  /// (`Docs/ReportSchema.md`); ``init(json:)`` reads it back. It is what the report's
  /// `Codable` conformance writes, with `JSONEncoder`, keys sorted.
  ///
  /// - Parameter pretty: Indent the output, two spaces a level.
  /// - Returns: The JSON text.
  public func json(pretty: Bool = false) -> String {
    JSONCoding.text(self, pretty: pretty)
  }

  /// Reads a report written by ``json(pretty:)`` (or by `JSONEncoder`).
  ///
  /// Any malformed document throws, however deep: arrays and objects nested deeper than 64
  /// levels are refused before they are decoded.
  ///
  /// - Parameter json: The JSON text.
  /// - Throws: ``JSONError`` if it is not JSON, is nested too deep, or is not a report of
  ///   this schema.
  public init(json: String) throws(JSONError) {
    do {
      self = try JSONCoding.decode(LaunchReport.self, from: Data(json.utf8))
    } catch let error as JSONError {
      throw error
    } catch {
      throw JSONError(message: "\(error)")
    }
  }
}
