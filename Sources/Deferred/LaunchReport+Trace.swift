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
    var threads: [String] = []
    func tid(_ name: String) -> Int64 {
      if let index = threads.firstIndex(of: name) { return Int64(index + 1) }
      threads.append(name)
      return Int64(threads.count)
    }
    func micros(_ time: Duration) -> JSONValue { .double(Double(time.nanoseconds) / 1_000) }
    func millis(_ time: Duration) -> JSONValue { .double(Double(time.nanoseconds) / 1_000_000) }
    var events: [JSONValue] = []
    let main = builds.first { $0.isMainThread }?.thread ?? "main"
    _ = tid(main)
    for build in builds {
      var args: [(String, JSONValue)] = [
        ("priority", .string(build.priority.description)),
        ("trigger", .string(build.trigger.description)), ("self_ms", millis(build.selfDuration)),
        ("outcome", .string(build.outcome.rawValue)), ("attempt", .int(Int64(build.attempt))),
      ]
      if let by = build.requestedBy { args.append(("requested_by", .string(by))) }
      if let cpu = build.cpu { args.append(("cpu_ms", millis(cpu))) }
      if let qos = build.qos { args.append(("qos", .string(qos.description))) }
      if let queued = build.queued { args.append(("queued_ms", millis(queued))) }
      if build.waited > .zero {
        args.append(("others_waited_ms", millis(build.waited)))
        args.append(("waiters", .array(build.waiters.map(JSONValue.string))))
      }
      if let error = build.error { args.append(("error", .string(error))) }
      events.append(
        .object([
          ("name", .string(build.service)), ("cat", .string(build.stage.description)),
          ("ph", .string("X")),
          ("ts", micros(build.start)), ("dur", micros(build.duration)), ("pid", .int(1)),
          ("tid", .int(tid(build.thread))), ("args", .object(args)),
        ]))
    }
    for hazard in hazards where hazard.kind == .mainThreadWait {
      guard let duration = hazard.duration,
        let build = builds.last(where: { $0.service == hazard.service && $0.waited > .zero })
      else { continue }
      // The main thread's wait ends when the build it waited for ends.
      let end = build.end
      events.append(
        .object([
          ("name", .string("wait for \(hazard.service)")), ("cat", .string("wait")),
          ("ph", .string("X")), ("ts", micros(end > duration ? end - duration : .zero)),
          ("dur", micros(duration)), ("pid", .int(1)), ("tid", .int(tid(main))),
          ("args", .object([("detail", .string(hazard.detail))])),
        ]))
    }
    // Flow events from each build (or main-thread wait) that waited for another thread's
    // build to that build, so that a profiler draws the chain: the start inside the waiter,
    // the end bound to the enclosing slice (`bp: e`) just before the awaited build ends.
    var flow: Int64 = 0
    for build in builds where build.waited > .zero {
      let end = build.end.nanoseconds
      let into = end - min(build.duration.nanoseconds / 2, 1_000)
      for waiter in build.waiters {
        var start: (tid: Int64, at: UInt64)?
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
          var members: [(String, JSONValue)] = [
            ("name", .string("waited for \(build.service)")), ("cat", .string("wait")),
            ("ph", .string(phase)), ("id", .int(flow)),
            ("ts", .double(Double(at) / 1_000)), ("pid", .int(1)), ("tid", .int(tid)),
          ]
          if phase == "f" { members.append(("bp", .string("e"))) }
          events.append(.object(members))
        }
      }
    }
    for milestone in milestones {
      events.append(
        .object([
          ("name", .string(milestone.kind.title)), ("cat", .string("milestone")),
          ("ph", .string("i")), ("s", .string("g")), ("ts", micros(milestone.offset)),
          ("pid", .int(1)), ("tid", .int(tid(main))),
        ]))
    }
    var metadata: [JSONValue] = [
      .object([
        ("name", .string("process_name")), ("ph", .string("M")), ("pid", .int(1)),
        ("args", .object([("name", .string("launch"))])),
      ])
    ]
    for (index, thread) in threads.enumerated() {
      metadata.append(
        .object([
          ("name", .string("thread_name")), ("ph", .string("M")), ("pid", .int(1)),
          ("tid", .int(Int64(index + 1))), ("args", .object([("name", .string(thread))])),
        ]))
      metadata.append(
        .object([
          ("name", .string("thread_sort_index")), ("ph", .string("M")), ("pid", .int(1)),
          ("tid", .int(Int64(index + 1))), ("args", .object([("sort_index", .int(Int64(index)))])),
        ]))
    }
    return JSONValue.object([
      ("traceEvents", .array(metadata + events)), ("displayTimeUnit", .string("ms")),
    ]).rendered(pretty: true)
  }
}

extension LaunchReport {
  /// The build that `waiter` (an entry of `build`'s ``BuildRecord/waiters``: `Service on
  /// thread`) names: the latest build of that service on that thread that was under way when
  /// `build` ended. `nil` for a waiter that was no build (a thread, by its name).
  func waitingBuild(_ waiter: String, for build: BuildRecord) -> BuildRecord? {
    builds.last {
      "\($0.service) on \($0.thread)" == waiter && $0.start <= build.end && $0.end >= build.end
    }
  }
}
