import Deferred

extension FieldReport {
  /// The name and version of the document ``json(pretty:)`` writes.
  public static let jsonSchema = "deferred.field-report/1"

  /// The report as JSON, schema ``jsonSchema``: times in whole nanoseconds, keys sorted.
  ///
  /// ```json
  /// {"schema":"deferred.field-report/1","payloads":2,"days":["…","…"],
  ///  "launch":[{"metric":"timeToFirstDraw","count":140,"p50Ns":1516700000,"p90Ns":…,
  ///             "localNs":412300000}],
  ///  "phases":[…],
  ///  "services":[{"service":"ThemeEngine","count":140,"p50Ns":…,"p90Ns":…,"localNs":…}],
  ///  "grown":[{"service":"SyncService","beforeNs":…,"afterNs":…,"from":"…","to":"…"}],
  ///  "foreignSignposts":3}
  /// ```
  ///
  /// A measure the field has no sample of has no `count`, `p50Ns` or `p90Ns`; one this device
  /// has no time for has no `localNs`.
  ///
  /// - Parameter pretty: Whether to indent it.
  /// - Returns: The document.
  public func json(pretty: Bool = false) -> String {
    JSONCoding.text(Document(self), pretty: pretty)
  }

  private struct Document: Encodable {
    struct Row: Encodable {
      var metric: String?
      var phase: String?
      var service: String?
      var count: Int?
      var p50Ns: Int64?
      var p90Ns: Int64?
      var localNs: Int64?

      init(
        metric: String? = nil, phase: String? = nil, service: String? = nil, _ stats: Stats?,
        local: Duration?
      ) {
        self.metric = metric
        self.phase = phase
        self.service = service
        count = stats?.count
        p50Ns = stats?.p50?.wholeNanoseconds
        p90Ns = stats?.p90?.wholeNanoseconds
        localNs = local?.wholeNanoseconds
      }
    }

    struct Grown: Encodable {
      var service: String
      var beforeNs: Int64
      var afterNs: Int64
      var from: String?
      var to: String?
    }

    var schema = FieldReport.jsonSchema
    var payloads: Int
    var days: [String]
    var launch: [Row]
    var phases: [Row]
    var services: [Row]
    var grown: [Grown]
    var foreignSignposts: Int

    init(_ report: FieldReport) {
      payloads = report.payloadCount
      days = report.days
      launch = FieldLaunchMetric.allCases.compactMap { metric in
        guard let histogram = report.launch[metric], !histogram.isEmpty else { return nil }
        return Row(
          metric: metric.rawValue, Stats(histogram), local: report.localTime(of: metric))
      }
      phases = FieldSignposts.Name.allCases.compactMap { phase in
        guard let histogram = report.phases[phase], !histogram.isEmpty else { return nil }
        return Row(phase: phase.rawValue, Stats(histogram), local: report.localTime(of: phase))
      }
      services = report.joined.map { Row(service: $0.name, $0.field, local: $0.local) }
      grown = report.grown.map {
        Grown(
          service: $0.service, beforeNs: $0.before.wholeNanoseconds,
          afterNs: $0.after.wholeNanoseconds, from: $0.from, to: $0.to)
      }
      foreignSignposts = report.foreignSignposts
    }
  }
}
