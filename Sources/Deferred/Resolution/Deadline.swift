import Dispatch

extension Duration {
  /// The duration in whole nanoseconds, saturated to what a `UInt64` holds: a negative
  /// duration counts as zero, and one beyond about 584 years as `UInt64.max`, a reading no
  /// clock reaches. Every conversion of a duration the app hands in goes through it, so that
  /// no duration, however long, overflows.
  var nanoseconds: UInt64 {
    // Compared first: `components` traps for a duration beyond `Int64.max` seconds either
    // way, which sums of durations reach.
    guard self > .zero else { return 0 }
    guard self < Self.beyondNanoseconds else { return .max }
    let (seconds, attoseconds) = components
    // Both components carry the duration's sign.
    guard seconds >= 0, attoseconds >= 0 else { return 0 }
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    let (sum, carry) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
    return overflow || carry ? .max : sum
  }

  /// One nanosecond past `UInt64.max` nanoseconds.
  private static let beyondNanoseconds =
    Duration.seconds(18_446_744_073) + .nanoseconds(709_551_616)

  /// `seconds` as a duration, saturated to `Int64.max` seconds either way (a `Double` of
  /// seconds can be far larger than a `Duration` holds); `nil` for NaN.
  init?(saturatingSeconds seconds: Double) {
    guard !seconds.isNaN else { return nil }
    let limit = Double(Int64.max)
    self = seconds.magnitude < limit ? .seconds(seconds) : .seconds(seconds < 0 ? -limit : limit)
  }
}

/// The clock reading `duration` after `now`, saturated at `UInt64.max`.
func deadline(after duration: Duration, from now: UInt64) -> UInt64 {
  let (sum, overflow) = now.addingReportingOverflow(duration.nanoseconds)
  return overflow ? .max : sum
}

extension DispatchTime {
  /// The time `duration` from now; `distantFuture` (never) for a duration beyond about 146
  /// years. In nanoseconds of uptime, not Dispatch's `Int` intervals, which are 32 bits on
  /// some watches.
  static func after(_ duration: Duration) -> DispatchTime {
    let nanoseconds = duration.nanoseconds
    guard nanoseconds < 1 << 62 else { return .distantFuture }
    return DispatchTime(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds + nanoseconds)
  }
}
