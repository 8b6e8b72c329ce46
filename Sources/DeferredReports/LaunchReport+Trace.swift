import Deferred

extension LaunchReport {
  /// The launch in the Chrome trace event format: open it in Perfetto UI (ui.perfetto.dev) or
  /// `chrome://tracing`.
  ///
  /// One track per thread, named; a span per build, with its record as arguments; the waits
  /// for other threads' builds as spans of their own; flow events (`ph` `s` and `f`, paired by
  /// `id`) from each build or wait that waited for another thread's build to that build; the
  /// milestones as global instant events.
  /// Times are microseconds from the process start.
  ///
  /// - Returns: The trace, as JSON text.
  public func chromeTrace() -> String {
    guard hasFiguresInRange else { return figuresInRange.chromeTrace() }
    var threads: [String] = []
    func tid(_ name: String) -> Int {
      if let index = threads.firstIndex(of: name) { return index + 1 }
      threads.append(name)
      return threads.count
    }
    func micros(_ time: Duration) -> Double { Double(time.nanoseconds) / 1_000 }
    func millis(_ time: Duration) -> TraceEvent.Value {
      .number(Double(time.nanoseconds) / 1_000_000)
    }
    var events: [TraceEvent] = []
    let main = builds.first { $0.isMainThread }?.thread ?? "main"
    _ = tid(main)
    for build in builds {
      var args: [String: TraceEvent.Value] = [
        "priority": .string(build.priority.description),
        "trigger": .string(build.trigger.description), "self_ms": millis(build.selfDuration),
        "outcome": .string(build.outcome.rawValue), "attempt": .integer(build.attempt),
      ]
      if let by = build.requestedBy { args["requested_by"] = .string(by) }
      if let cpu = build.cpu { args["cpu_ms"] = millis(cpu) }
      if let qos = build.qos { args["qos"] = .string(qos.description) }
      if let queued = build.queued { args["queued_ms"] = millis(queued) }
      if build.waited > .zero {
        args["others_waited_ms"] = millis(build.waited)
        args["waiters"] = .strings(build.waiters)
      }
      if let error = build.error { args["error"] = .string(error) }
      events.append(
        TraceEvent(
          name: build.service, category: build.stage.description, phase: "X",
          timestamp: micros(build.start), duration: micros(build.duration),
          thread: tid(build.thread), args: args))
    }
    for hazard in hazards where hazard.kind == .mainThreadWait {
      guard let duration = hazard.duration,
        let build = builds.last(where: { $0.service == hazard.service && $0.waited > .zero })
      else { continue }
      // The main thread's wait ends when the build it waited for ends.
      let end = build.end
      events.append(
        TraceEvent(
          name: "wait for \(hazard.service)", category: "wait", phase: "X",
          timestamp: micros(end > duration ? end - duration : .zero), duration: micros(duration),
          thread: tid(main), args: ["detail": .string(hazard.detail)]))
    }
    // Flow events from each build (or main-thread wait) that waited for another thread's
    // build to that build, so that a profiler draws the chain: the start inside the waiter,
    // the end bound to the enclosing slice (`bp: e`) just before the awaited build ends.
    var flow = 0
    for build in builds where build.waited > .zero {
      let end = build.end.nanoseconds
      let into = end - min(build.duration.nanoseconds / 2, 1_000)
      for waiter in build.waiters {
        var start: (tid: Int, at: UInt64)?
        if let waiting = waitingBuild(waiter, for: build) {
          let from = max(waiting.start.nanoseconds, build.start.nanoseconds)
          start = (tid(waiting.thread), from + (end - min(from, end)) / 2)
        } else if waiter == main,
          let wait = hazards.first(where: {
            $0.kind == .mainThreadWait && $0.service == build.service
          })?.duration
        {
          start = (tid(main), end - min(wait.nanoseconds, end) / 2)
        }
        guard let start else { continue }
        flow += 1
        for (phase, tid, at) in [("s", start.tid, start.at), ("f", tid(build.thread), into)] {
          events.append(
            TraceEvent(
              name: "waited for \(build.service)", category: "wait", phase: phase, id: flow,
              timestamp: Double(at) / 1_000, thread: tid, bindingPoint: phase == "f" ? "e" : nil))
        }
      }
    }
    for milestone in milestones {
      events.append(
        TraceEvent(
          name: milestone.kind.title, category: "milestone", phase: "i", scope: "g",
          timestamp: micros(milestone.offset), thread: tid(main)))
    }
    var metadata = [TraceEvent(name: "process_name", phase: "M", args: ["name": .string("launch")])]
    for (index, thread) in threads.enumerated() {
      metadata.append(
        TraceEvent(
          name: "thread_name", phase: "M", thread: index + 1, args: ["name": .string(thread)]))
      metadata.append(
        TraceEvent(
          name: "thread_sort_index", phase: "M", thread: index + 1,
          args: ["sort_index": .integer(index)]))
    }
    return JSONCoding.text(Trace(traceEvents: metadata + events), pretty: true)
  }
}

/// A Chrome trace document: its events, times in microseconds, shown in milliseconds.
private struct Trace: Encodable {
  var traceEvents: [TraceEvent]
  var displayTimeUnit = "ms"
}

/// One event of a Chrome trace; a field that is `nil` is left out.
private struct TraceEvent: Encodable {
  /// An argument's value.
  enum Value: Encodable {
    case string(String)
    case number(Double)
    case integer(Int)
    case strings([String])

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .string(let value): try container.encode(value)
      case .number(let value): try container.encode(value)
      case .integer(let value): try container.encode(value)
      case .strings(let value): try container.encode(value)
      }
    }
  }

  enum CodingKeys: String, CodingKey {
    case name, id, pid, args
    case thread = "tid"
    case category = "cat"
    case phase = "ph"
    case scope = "s"
    case timestamp = "ts"
    case duration = "dur"
    case bindingPoint = "bp"
  }

  var name: String
  var category: String?
  var phase: String
  var scope: String?
  var id: Int?
  var timestamp: Double?
  var duration: Double?
  var pid = 1
  var thread: Int?
  var bindingPoint: String?
  var args: [String: Value]?

  init(
    name: String, category: String? = nil, phase: String, scope: String? = nil, id: Int? = nil,
    timestamp: Double? = nil, duration: Double? = nil, thread: Int? = nil,
    bindingPoint: String? = nil, args: [String: Value]? = nil
  ) {
    self.name = name
    self.category = category
    self.phase = phase
    self.scope = scope
    self.id = id
    self.timestamp = timestamp
    self.duration = duration
    self.thread = thread
    self.bindingPoint = bindingPoint
    self.args = args
  }
}

extension LaunchReport {
  /// The build that `waiter` (an entry of `build`'s `BuildRecord.waiters`: `Service on
  /// thread`) names: the latest build of that service on that thread that was under way when
  /// `build` ended. `nil` for a waiter that was no build (a thread, by its name).
  func waitingBuild(_ waiter: String, for build: BuildRecord) -> BuildRecord? {
    builds.last {
      "\($0.service) on \($0.thread)" == waiter && $0.start <= build.end && $0.end >= build.end
    }
  }
}
