import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `loop(iterations)` on this thread and on a second one at the same moment, and returns
/// the nanoseconds from the start until both are done: the time per operation it gives is
/// per thread, each thread doing `iterations` operations.
///
/// The second thread is started, and waits spinning, before the clock starts. Waits yield the
/// processor: should the scheduler put both threads on one core, the spinning one gives way.
func contended(iterations: Int, _ loop: @escaping @Sendable (Int) -> Void) -> UInt64 {
  let flags = Flags()
  let worker = NativeThread {
    flags.ready.store(true, ordering: .releasing)
    while !flags.go.load(ordering: .acquiring) { sched_yield() }
    loop(iterations)
    flags.done.store(true, ordering: .releasing)
  }
  while !flags.ready.load(ordering: .acquiring) { sched_yield() }
  let start = monotonicNanoseconds()
  flags.go.store(true, ordering: .releasing)
  loop(iterations)
  while !flags.done.load(ordering: .acquiring) { sched_yield() }
  let elapsed = monotonicNanoseconds() - start
  worker.join()
  return elapsed
}

private final class Flags: Sendable {
  let ready = Atomic(false)
  let go = Atomic(false)
  let done = Atomic(false)
}
