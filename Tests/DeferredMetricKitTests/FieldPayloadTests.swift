import Deferred
import DeferredMetricKit
import Foundation
import Testing

@Suite struct FieldPayloadTests {
  @Test func aDaysPayloadGivesItsLaunchHistogramsPhasesAndServices() throws {
    let payloads = try FieldPayload.read(Fixtures.data("metric-payload-day1.json"))
    let payload = try #require(payloads.first)
    #expect(payloads.count == 1)
    #expect(payload.appVersion == "1.4.0" && payload.appBuild == "212")
    #expect(payload.end == "2026-11-26 06:59:00 +0000")
    #expect(Set(payload.launch.keys) == Set(FieldLaunchMetric.allCases))
    let firstDraw = try #require(payload.launch[.timeToFirstDraw])
    #expect(firstDraw.count == 140)
    // 140 launches: the 70th is 30 of 70 into the 420–430 ms bucket; the 126th 16 of 20 into
    // the 610–620 ms bucket.
    #expect(firstDraw.p50 == .milliseconds(420) + .milliseconds(10) * (30.0 / 70.0))
    #expect(firstDraw.p90 == .milliseconds(618))
    #expect(
      Set(payload.services.keys) == [
        "Storage", "CachedConfig", "ThemeEngine", "Calculator", "SyncService", "TapeIndex",
      ])
    #expect(payload.services["CachedConfig"]?.count == 140)
    #expect(Set(payload.phases.keys) == [.launchToFirstFrame, .firstFrameToFullyReady])
    #expect(payload.foreignSignposts == 1)
    #expect(payload.signposts.count == 9)
  }

  @Test func aLocalizedPayloadReadsAsItsDeviceWroteIt() throws {
    let payload = try #require(
      try FieldPayload.read(Fixtures.data("metric-payload-localized.json")).first)
    let firstDraw = try #require(payload.launch[.timeToFirstDraw])
    #expect(
      firstDraw.buckets == [
        .init(start: .milliseconds(1_260), end: .milliseconds(1_269), count: 1),
        .init(start: .milliseconds(1_530), end: .milliseconds(1_539), count: 3),
      ])
    #expect(payload.services["Storage"]?.count == 8)
  }

  @Test func aDiagnosticPayloadIsReadAsNothingDeferredUses() throws {
    let payloads = try FieldPayload.read(Fixtures.data("diagnostic-payload.json"))
    #expect(payloads.count == 1)
    let report = FieldReport(payloads: payloads)
    #expect(report.isEmpty)
    #expect(report.text().contains("no launch histograms and no Deferred signposts"))
  }

  @Test func durationsAreReadInTheUnitsAndGroupingTheDeviceUses() throws {
    func read(_ text: String) throws -> Duration {
      let json = """
        {"appVersion":"1","applicationLaunchMetrics":{"histogrammedTimeToFirstDrawKey":
        {"histogramNumBuckets":1,"histogramValue":{"0":{"bucketCount":1,
        "bucketStart":"\(text)","bucketEnd":"\(text)"}}}}}
        """
      let payload = try #require(try FieldPayload.read(json).first)
      return try #require(payload.launch[.timeToFirstDraw]?.buckets.first?.start)
    }
    #expect(try read("1,000 ms") == .seconds(1))
    #expect(try read("1.5 sec") == .milliseconds(1_500))
    #expect(try read("2,5 sec") == .milliseconds(2_500))
    #expect(try read("1.530 ms") == .milliseconds(1_530))
    #expect(try read("1 234 ms") == .milliseconds(1_234))
    #expect(try read("1\u{202F}234,5 ms") == .microseconds(1_234_500))
    #expect(try read("1,234.5 ms") == .microseconds(1_234_500))
    #expect(try read("1.234,5 ms") == .microseconds(1_234_500))
    #expect(try read("250 µs") == .microseconds(250))
    #expect(try read("1,530毫秒") == .milliseconds(1_530))
    #expect(try read("2 min") == .seconds(120))
    for bad in ["12 parsecs", "ms", "", "-5 ms", "99,999,999 sec", "1e400 ms"] {
      #expect(throws: FieldPayloadError.self, "\(bad)") { try read(bad) }
    }
  }

  /// Whatever arrives, reading ends in payloads or an error naming the fault.
  @Test(arguments: [
    ("", "empty"),
    ("   \n", "empty"),
    ("{", "JSON"),
    ("[{\"appVersion\":\"1\"", "JSON"),
    ("not json", "JSON"),
    ("42", "found number"),
    ("{\"schema\":\"deferred.launch-report/1\"}", "not a MetricKit metric payload"),
    ("[{\"appVersion\":\"1\"},{\"crash\":1}]", "[1] is not a MetricKit metric payload"),
    ("{\"timeStampEnd\":3}", "timeStampEnd"),
    (
      "{\"appVersion\":\"1\",\"signpostMetrics\":[{\"signpostCategory\":\"Deferred/A\"}]}",
      "signpostName"
    ),
    (
      "{\"appVersion\":\"1\",\"applicationLaunchMetrics\":{\"histogrammedTimeToFirstDrawKey\":"
        + "{\"histogramValue\":{\"0\":{\"bucketCount\":-4,\"bucketStart\":\"1 ms\","
        + "\"bucketEnd\":\"2 ms\"}}}}}",
      "below zero"
    ),
    (
      "{\"appVersion\":\"1\",\"applicationLaunchMetrics\":{\"histogrammedExtendedLaunch\":"
        + "{\"histogramValue\":{\"0\":{\"bucketCount\":4,\"bucketStart\":\"9 ms\","
        + "\"bucketEnd\":\"2 ms\"}}}}}",
      "applicationLaunchMetrics.histogrammedExtendedLaunch.histogramValue.0: the bucket ends"
    ),
    (
      "{\"appVersion\":\"1\",\"signpostMetrics\":[{\"signpostCategory\":\"Deferred/A\","
        + "\"signpostName\":\"build\",\"signpostIntervalData\":{\"histogrammedSignpostDurations\":"
        + "{\"histogramValue\":{\"0\":{\"bucketCount\":1,\"bucketStart\":\"12 parsecs\","
        + "\"bucketEnd\":\"2 ms\"}}}}}]}",
      "signpostMetrics[0].signpostIntervalData.histogrammedSignpostDurations.histogramValue.0"
        + ".bucketStart: \"12 parsecs\" is not a duration"
    ),
  ])
  func malformedAndForeignPayloadsAreErrorsNamingTheFault(json: String, fault: String) {
    do {
      let payloads = try FieldPayload.read(json)
      Issue.record("read \(payloads.count) payloads from \(json)")
    } catch {
      #expect(error.message.contains(fault), "\(error)")
    }
  }

  @Test func hugeAndDeepDocumentsAreRefusedBeforeTheyAreDecoded() throws {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: FieldPayloadError.self) { try FieldPayload.read(deep) }
    let huge = Data(repeating: UInt8(ascii: " "), count: FieldPayload.byteLimit + 1)
    do {
      _ = try FieldPayload.read(huge)
      Issue.record("read a document over the limit")
    } catch {
      #expect(error.message.contains("more than the \(FieldPayload.byteLimit)"))
    }
    // Many buckets: refused past the limit, with the count.
    let buckets = (0...FieldPayload.itemLimit).map {
      "\"\($0)\":{\"bucketCount\":1,\"bucketStart\":\"\($0) ms\",\"bucketEnd\":\"\($0) ms\"}"
    }
    let many =
      "{\"appVersion\":\"1\",\"applicationLaunchMetrics\":{\"histogrammedResumeTime\":"
      + "{\"histogramValue\":{\(buckets.joined(separator: ","))}}}}"
    do {
      _ = try FieldPayload.read(many)
      Issue.record("read a histogram over the limit")
    } catch {
      #expect(error.message.contains("buckets, more than \(FieldPayload.itemLimit)"))
    }
  }

  @Test func countsAtTheLimitsOfIntAddUpWithoutOverflow() throws {
    let json = """
      [{"appVersion":"1","applicationLaunchMetrics":{"histogrammedResumeTime":{"histogramValue":
      {"0":{"bucketCount":\(Int.max),"bucketStart":"1 ms","bucketEnd":"2 ms"},
       "1":{"bucketCount":\(Int.max),"bucketStart":"3 ms","bucketEnd":"4 ms"}}}}}]
      """
    let payloads = try FieldPayload.read(json)
    let resume = try #require(payloads.first?.launch[.resume])
    #expect(resume.count == .max)
    #expect(resume.p50 != nil)
    #expect(FieldReport(payloads: payloads + payloads).launch[.resume]?.count == .max)
  }

  @Test func anEmptyArrayIsNoPayloadAndAnEmptyReport() throws {
    let payloads = try FieldPayload.read("[]")
    #expect(payloads.isEmpty)
    let report = FieldReport(payloads: payloads)
    #expect(report.isEmpty)
    #expect(report.text().hasPrefix("Field: 0 payloads\n"))
    #expect(report.json().contains("\"payloads\":0"))
  }

  @Test func percentilesOfAnEmptyHistogramAreNone() {
    #expect(FieldHistogram().p50 == nil)
    let one = FieldHistogram(buckets: [.init(start: .zero, end: .milliseconds(10), count: 4)])
    #expect(one.percentile(0) == .zero)
    #expect(one.percentile(1) == .milliseconds(10))
    #expect(one.percentile(.nan) == .milliseconds(5))
  }
}
