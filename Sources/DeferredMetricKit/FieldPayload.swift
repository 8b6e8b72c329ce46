import Deferred

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One MetricKit metric payload as Deferred reads it: the launch histograms, and the signpost
/// metrics of Deferred's categories (``FieldSignposts``).
///
/// Read from what `MXMetricPayload.jsonRepresentation()` returns, on any platform: an app
/// uploads its payloads, and a tool or a test reads them back. Fields Deferred does not use
/// are ignored; signpost metrics of other categories are kept in ``signposts`` and counted out
/// of ``services``.
///
/// ```swift
/// func didReceive(_ payloads: [MXMetricPayload]) {
///   for payload in payloads {
///     let field = try? FieldPayload.read(payload.jsonRepresentation())
///   }
/// }
/// ```
public struct FieldPayload: Sendable, Hashable {
  /// One custom signpost metric of the payload.
  public struct Signpost: Sendable, Hashable {
    /// Its category (`signpostCategory`).
    public var category: String
    /// Its name (`signpostName`).
    public var name: String
    /// How many were recorded (`totalSignpostCount`).
    public var count: Int
    /// The intervals' durations (`signpostIntervalData.histogrammedSignpostDurations`).
    public var durations: FieldHistogram

    /// Creates a signpost metric.
    ///
    /// - Parameters:
    ///   - category: Its category.
    ///   - name: Its name.
    ///   - count: How many were recorded.
    ///   - durations: Their durations.
    public init(category: String, name: String, count: Int, durations: FieldHistogram) {
      self.category = category
      self.name = name
      self.count = count
      self.durations = durations
    }
  }

  /// The largest payload read, in bytes: a day's payload is tens of kilobytes.
  public static let byteLimit = 8 << 20
  /// The most buckets a histogram, or signpost metrics a payload, may have.
  public static let itemLimit = 10_000

  /// When the payload's day began, as MetricKit wrote it (`timeStampBegin`).
  public var begin: String?
  /// When it ended (`timeStampEnd`).
  public var end: String?
  /// The app's version (`appVersion`).
  public var appVersion: String?
  /// The app's build (`metaData.appBuildVersion`).
  public var appBuild: String?
  /// The launch histograms the payload has.
  public var launch: [FieldLaunchMetric: FieldHistogram]
  /// Every custom signpost metric, of any category, in the payload's order.
  public var signposts: [Signpost]

  /// Creates a payload.
  ///
  /// - Parameters:
  ///   - begin: When its day began.
  ///   - end: When it ended.
  ///   - appVersion: The app's version.
  ///   - appBuild: The app's build.
  ///   - launch: The launch histograms.
  ///   - signposts: The custom signpost metrics.
  public init(
    begin: String? = nil, end: String? = nil, appVersion: String? = nil,
    appBuild: String? = nil, launch: [FieldLaunchMetric: FieldHistogram] = [:],
    signposts: [Signpost] = []
  ) {
    self.begin = begin
    self.end = end
    self.appVersion = appVersion
    self.appBuild = appBuild
    self.launch = launch
    self.signposts = signposts
  }

  /// Each service's build durations: the signposts named `build` in a `Deferred/<service>`
  /// category, by service.
  public var services: [String: FieldHistogram] {
    var services: [String: FieldHistogram] = [:]
    for signpost in signposts where signpost.name == FieldSignposts.Name.build.rawValue {
      guard let service = FieldSignposts.service(inCategory: signpost.category) else { continue }
      services[service] = services[service, default: FieldHistogram()].merging(signpost.durations)
    }
    return services
  }

  /// The launch phases' durations: the signposts of the category `Deferred`.
  public var phases: [FieldSignposts.Name: FieldHistogram] {
    var phases: [FieldSignposts.Name: FieldHistogram] = [:]
    for signpost in signposts where signpost.category == FieldSignposts.phaseCategory {
      guard let phase = FieldSignposts.Name(rawValue: signpost.name), phase != .build else {
        continue
      }
      phases[phase] = phases[phase, default: FieldHistogram()].merging(signpost.durations)
    }
    return phases
  }

  /// The signpost metrics that are not Deferred's.
  public var foreignSignposts: Int {
    signposts.count {
      $0.category != FieldSignposts.phaseCategory
        && FieldSignposts.service(inCategory: $0.category) == nil
    }
  }

  /// Reads the payloads in `json`: one payload (what `jsonRepresentation()` returns), or an
  /// array of them.
  ///
  /// - Parameter json: The JSON document's bytes.
  /// - Returns: The payloads, in the document's order; none for an empty array.
  /// - Throws: ``FieldPayloadError`` for a document that is empty, larger than ``byteLimit``,
  ///   not JSON, nested too deep, not a metric payload (an object with none of
  ///   `timeStampBegin`, `timeStampEnd`, `appVersion` and `metaData`), or with a field not in
  ///   the shape MetricKit writes (a duration that is not one, a count below zero, more than
  ///   ``itemLimit`` buckets).
  public static func read(_ json: Data) throws(FieldPayloadError) -> [FieldPayload] {
    guard json.count <= byteLimit else {
      throw FieldPayloadError(
        "\(json.count) bytes, more than the \(byteLimit) a payload may have")
    }
    guard let first = json.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
      throw FieldPayloadError("the document is empty")
    }
    do {
      if first == UInt8(ascii: "[") {
        let raws = try JSONCoding.decode([RawPayload].self, from: json)
        var payloads: [FieldPayload] = []
        for (index, raw) in raws.enumerated() {
          payloads.append(try FieldPayload(raw, at: "[\(index)]"))
        }
        return payloads
      }
      return [try FieldPayload(try JSONCoding.decode(RawPayload.self, from: json), at: "")]
    } catch let error as FieldPayloadError {
      throw error
    } catch let error as JSONError {
      throw FieldPayloadError(error.message)
    } catch {
      throw FieldPayloadError("\(error)")
    }
  }

  /// Reads the payloads in the text `json`, as ``read(_:)-(Data)`` reads bytes.
  ///
  /// - Parameter json: The JSON document.
  /// - Returns: The payloads.
  /// - Throws: ``FieldPayloadError`` as ``read(_:)-(Data)`` does.
  public static func read(_ json: String) throws(FieldPayloadError) -> [FieldPayload] {
    try read(Data(json.utf8))
  }

  private init(_ raw: RawPayload, at root: String) throws(FieldPayloadError) {
    func path(_ tail: String) -> String { root.isEmpty ? tail : "\(root).\(tail)" }
    guard
      raw.timeStampBegin != nil || raw.timeStampEnd != nil || raw.appVersion != nil
        || raw.metaData != nil
    else {
      throw FieldPayloadError(
        "\(root.isEmpty ? "the document" : root) is not a MetricKit metric payload (it has none"
          + " of timeStampBegin, timeStampEnd, appVersion and metaData)")
    }
    var launch: [FieldLaunchMetric: FieldHistogram] = [:]
    if let metrics = raw.applicationLaunchMetrics {
      for metric in FieldLaunchMetric.allCases {
        for key in metric.jsonKeys {
          guard let histogram = metrics.histograms[key] else { continue }
          launch[metric] = try histogram.histogram(at: path("applicationLaunchMetrics.\(key)"))
          break
        }
      }
    }
    let rawSignposts = raw.signpostMetrics ?? []
    guard rawSignposts.count <= Self.itemLimit else {
      throw FieldPayloadError(
        "\(path("signpostMetrics")): \(rawSignposts.count) metrics, more than \(Self.itemLimit)")
    }
    var signposts: [Signpost] = []
    for (index, signpost) in rawSignposts.enumerated() {
      let place = path("signpostMetrics[\(index)]")
      let count = signpost.totalSignpostCount ?? 0
      guard count >= 0 else {
        throw FieldPayloadError("\(place).totalSignpostCount: \(count) is below zero")
      }
      let durations =
        try signpost.signpostIntervalData?.histogrammedSignpostDurations?.histogram(
          at: "\(place).signpostIntervalData.histogrammedSignpostDurations") ?? FieldHistogram()
      signposts.append(
        Signpost(
          category: signpost.signpostCategory, name: signpost.signpostName, count: count,
          durations: durations))
    }
    self.init(
      begin: raw.timeStampBegin, end: raw.timeStampEnd, appVersion: raw.appVersion,
      appBuild: raw.metaData?.appBuildVersion, launch: launch, signposts: signposts)
  }
}

// MARK: - The JSON as MetricKit writes it

/// A payload's fields that Deferred reads; every other field is ignored.
private struct RawPayload: Decodable {
  var timeStampBegin: String?
  var timeStampEnd: String?
  var appVersion: String?
  var metaData: RawMetaData?
  var applicationLaunchMetrics: RawLaunchMetrics?
  var signpostMetrics: [RawSignpost]?
}

private struct RawMetaData: Decodable {
  var appBuildVersion: String?
}

/// The launch metrics: histograms under keys that vary with the OS version; any other key is
/// ignored.
private struct RawLaunchMetrics: Decodable {
  var histograms: [String: RawHistogram] = [:]

  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: Key.self)
    let known = Set(FieldLaunchMetric.allCases.flatMap(\.jsonKeys))
    for key in values.allKeys where known.contains(key.stringValue) {
      histograms[key.stringValue] = try values.decode(RawHistogram.self, forKey: key)
    }
  }
}

private struct RawHistogram: Decodable {
  var histogramNumBuckets: Int?
  var histogramValue: [String: RawBucket]?

  func histogram(at path: String) throws(FieldPayloadError) -> FieldHistogram {
    let raw = histogramValue ?? [:]
    guard raw.count <= FieldPayload.itemLimit else {
      throw FieldPayloadError(
        "\(path).histogramValue: \(raw.count) buckets, more than \(FieldPayload.itemLimit)")
    }
    var buckets: [FieldHistogram.Bucket] = []
    for key in raw.keys.sorted(by: { (Int($0) ?? .max, $0) < (Int($1) ?? .max, $1) }) {
      guard let bucket = raw[key] else { continue }
      let place = "\(path).histogramValue.\(key)"
      guard bucket.bucketCount >= 0 else {
        throw FieldPayloadError("\(place).bucketCount: \(bucket.bucketCount) is below zero")
      }
      let start = try FieldValue.duration(bucket.bucketStart, at: "\(place).bucketStart")
      let end = try FieldValue.duration(bucket.bucketEnd, at: "\(place).bucketEnd")
      guard end >= start else {
        throw FieldPayloadError(
          "\(place): the bucket ends (\(bucket.bucketEnd)) before it starts"
            + " (\(bucket.bucketStart))")
      }
      buckets.append(FieldHistogram.Bucket(start: start, end: end, count: bucket.bucketCount))
    }
    return FieldHistogram(buckets: buckets)
  }
}

private struct RawBucket: Decodable {
  var bucketCount: Int
  var bucketStart: String
  var bucketEnd: String
}

private struct RawSignpost: Decodable {
  var signpostCategory: String
  var signpostName: String
  var totalSignpostCount: Int?
  var signpostIntervalData: RawIntervalData?
}

private struct RawIntervalData: Decodable {
  var histogrammedSignpostDurations: RawHistogram?
}
