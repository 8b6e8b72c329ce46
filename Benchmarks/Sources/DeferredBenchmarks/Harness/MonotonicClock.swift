#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Nanoseconds on the monotonic clock: for intervals only.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// How many nanoseconds `body` takes.
@inline(__always)
func nanoseconds(_ body: () -> Void) -> UInt64 {
  let start = monotonicNanoseconds()
  body()
  return monotonicNanoseconds() - start
}
