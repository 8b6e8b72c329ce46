import DeferredReports
import Testing

@testable import Deferred

@Suite struct AdviceWorthShowingTests {
  static func item(_ service: String, saving: Duration) -> Advice {
    Advice(
      kind: .deferCritical, service: service, saving: saving, effect: .firstFrame,
      detail: "\(service)")
  }

  @Test func tinyItemsBesideLargeOnesAreLeftOut() {
    let advice = [
      Self.item("Conversions", saving: .milliseconds(370)),
      Self.item("Fonts", saving: .microseconds(100)),
      Self.item("Clock", saving: .microseconds(40)),
      Self.item("Tips", saving: .microseconds(101)),
    ]
    #expect(Advice.worthShowing(advice).map(\.service) == ["Conversions", "Tips"])
  }

  @Test func tinyItemsAloneAreKept() {
    let advice = [
      Self.item("Fonts", saving: .milliseconds(9)), Self.item("Clock", saving: .microseconds(40)),
    ]
    #expect(Advice.worthShowing(advice) == advice)
    #expect(Advice.worthShowing([]).isEmpty)
  }
}
