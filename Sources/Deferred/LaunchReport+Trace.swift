extension LaunchReport {
  /// The launch in the Chrome trace event format: open it in Perfetto UI (ui.perfetto.dev) or
  /// `chrome://tracing`.
  ///
  /// One track per thread, named; a span per build, with its record as arguments; the waits
  /// for other threads' builds as spans of their own; the milestones as global instant events.
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
