import Deferred

extension LaunchReport {
  /// The launch as a self-contained SVG timeline that opens in any browser: a row per thread,
  /// a bar per build coloured by priority and labelled where it fits (every bar has a tooltip),
  /// the milestones as vertical lines, a time axis and a legend. An arrow goes from each build
  /// (or main-thread wait) that waited for another thread's build to the end of the build it
  /// waited for. Milestone labels that would overlap go on rows of their own.
  ///
  /// Builds that overlap on one thread (a factory that builds what it needs as it goes) are
  /// stacked in lanes, so every bar stays visible with 5 services or with 200.
  ///
  /// - Parameter width: The width of the picture, in pixels.
  /// - Returns: The SVG document.
  public func svg(width: Int = 1200) -> String {
    guard hasFiguresInRange else { return figuresInRange.svg(width: width) }
    let gutter = 170.0
    let right = 30.0
    let laneHeight = 20.0
    var top = 74.0
    let plot = Double(width) - gutter - right
    // At most `Int64.max` nanoseconds, the most a figure holds (a build's end may be twice
    // that): the axis's ticks, and the span rounded up to them, stay within a `UInt64`.
    let endTime = min(
      max(
        builds.map(\.end.nanoseconds).max() ?? 0,
        milestones.map(\.offset.nanoseconds).max() ?? 0, 1_000_000),
      UInt64(Int64.max))
    let step = Self.tickStep(for: endTime)
    let span = Double((endTime + step - 1) / step * step)
    // A first frame in the first tenth of the launch gets a quarter of the width: the axis is
    // broken there, with a scale of its own before the break, so that the critical builds'
    // bars stay wide enough to read.
    let split = Self.axisSplit(firstFrame: offset(of: .firstFrame), span: span)
    let splitX = gutter + plot * Self.splitShare
    func x(_ nanoseconds: UInt64) -> Double {
      guard let split else { return gutter + Double(nanoseconds) / span * plot }
      let time = Double(nanoseconds)
      if time <= split { return gutter + time / split * (splitX - gutter) }
      return splitX + (time - split) / (span - split) * (gutter + plot - splitX)
    }
    func x(_ time: Duration) -> Double { x(time.nanoseconds) }

    // Milestone labels: each on the first row where it clears the labels already there; rows
    // past the second push the plot down.
    var labelRowEnds: [Double] = []
    var labels: [(line: Double, text: String, leftward: Bool, row: Int)] = []
    for milestone in milestones where milestone.kind != .processStart {
      let lineX = x(milestone.offset)
      let label = "\(milestone.kind.title) \(milliseconds(milestone.offset))"
      let labelWidth = Double(label.count) * 6.2
      // A label that would run off the right edge goes to the left of its line.
      let leftward = lineX + 3 + labelWidth > Double(width) - 4
      let labelStart = leftward ? lineX - 3 - labelWidth : lineX
      let row = labelRowEnds.firstIndex { $0 < labelStart - 4 } ?? labelRowEnds.count
      if row == labelRowEnds.count { labelRowEnds.append(0) }
      labelRowEnds[row] = labelStart + labelWidth + 3
      labels.append((lineX, label, leftward, row))
    }
    top += Double(max(0, labelRowEnds.count - 2)) * 12

    // Rows: the main thread first, then threads in order of their first build.
    var threads: [String] = []
    for build in builds.sorted(by: {
      ($0.isMainThread ? 0 : 1, $0.start) < ($1.isMainThread ? 0 : 1, $1.start)
    })
    where !threads.contains(build.thread) {
      threads.append(build.thread)
    }
    var lanesOf: [String: [[BuildRecord]]] = [:]
    for build in builds.sorted(by: { ($0.start, $1.duration) < ($1.start, $0.duration) }) {
      var lanes = lanesOf[build.thread, default: []]
      if let index = lanes.firstIndex(where: { ($0.last?.end ?? .zero) <= build.start }) {
        lanes[index].append(build)
      } else {
        lanes.append([build])
      }
      lanesOf[build.thread] = lanes
    }
    var rowTop: [String: Double] = [:]
    var y = top
    for thread in threads {
      rowTop[thread] = y
      y += Double(max(1, lanesOf[thread]?.count ?? 1)) * laneHeight + 10
    }
    let plotBottom = max(y, top + laneHeight)
    let height = Int(plotBottom + 46)

    var svg: [String] = []
    svg.append(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\""
        + " viewBox=\"0 0 \(width) \(height)\" font-family=\"Helvetica, Arial, sans-serif\""
        + " font-size=\"11\">")
    svg.append("<title>Launch timeline</title>")
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>")
    svg.append(
      "<text x=\"12\" y=\"22\" font-size=\"15\" font-weight=\"bold\">Launch timeline</text>")
    // Legend.
    var legendX = gutter
    for stage in LaunchStage.allCases {
      let (phase, colour) = (stage.description, Self.colour(of: stage))
      svg.append(
        "<rect x=\"\(f(legendX))\" y=\"12\" width=\"12\" height=\"12\" rx=\"2\" fill=\"\(colour)\"/>"
      )
      svg.append("<text x=\"\(f(legendX + 16))\" y=\"22\">\(phase)</text>")
      legendX += 16 + Double(phase.count) * 6.5 + 18
    }
    svg.append(
      "<rect x=\"\(f(legendX))\" y=\"12\" width=\"12\" height=\"12\" rx=\"2\" fill=\"#ffffff\""
        + " stroke=\"#c00000\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/>")
    svg.append("<text x=\"\(f(legendX + 16))\" y=\"22\">failed</text>")
    legendX += 16 + 6 * 6.5 + 18
    svg.append(
      "<rect x=\"\(f(legendX))\" y=\"12\" width=\"12\" height=\"12\" fill=\"#9aa0a6\""
        + " fill-opacity=\"0.55\" stroke=\"#5f6368\" stroke-dasharray=\"2 2\"/>")
    svg.append("<text x=\"\(f(legendX + 16))\" y=\"22\">main thread waiting</text>")
    // Row bands and names.
    for (index, thread) in threads.enumerated() {
      let rowY = rowTop[thread] ?? top
      let rowHeight = Double(max(1, lanesOf[thread]?.count ?? 1)) * laneHeight + 4
      if index % 2 == 0 {
        svg.append(
          "<rect x=\"0\" y=\"\(f(rowY - 2))\" width=\"\(width)\" height=\"\(f(rowHeight))\""
            + " fill=\"#f4f6f8\"/>")
      }
      svg.append(
        "<text x=\"12\" y=\"\(f(rowY + 13))\" font-weight=\"bold\">\(escape(Self.laneName(thread)))</text>"
      )
    }
    // Axis and grid: one scale, or one before the break and one after it.
    var ticks: [(time: UInt64, step: UInt64)] = []
    if let split {
      let before = Self.tickStep(for: UInt64(split) * 2)
      var tick: UInt64 = 0
      while Double(tick) < split {
        ticks.append((tick, before))
        tick += before
      }
      let after = Self.tickStep(for: UInt64(span - split))
      tick = (UInt64(split) + after - 1) / after * after
      // The first tick after the break is left out where its label would touch the break's.
      if x(tick) - splitX < 30 { tick += after }
      while Double(tick) <= span {
        ticks.append((tick, after))
        tick += after
      }
    } else {
      var tick: UInt64 = 0
      while Double(tick) <= span {
        ticks.append((tick, step))
        tick += step
      }
    }
    for (tick, tickStep) in ticks {
      let tickX = x(tick)
      svg.append(
        "<line x1=\"\(f(tickX))\" y1=\"\(f(top - 6))\" x2=\"\(f(tickX))\" y2=\"\(f(plotBottom))\""
          + " stroke=\"#e1e4e8\"/>")
      svg.append(
        "<text x=\"\(f(tickX))\" y=\"\(f(plotBottom + 16))\" text-anchor=\"middle\""
          + " fill=\"#555\">\(Self.tickLabel(tick, step: tickStep))</text>")
    }
    if split != nil {
      // The break: two slanted strokes on the axis, and a note that the scale changes there.
      for offset in [-3.0, 3.0] {
        svg.append(
          "<line x1=\"\(f(splitX + offset - 3))\" y1=\"\(f(plotBottom + 5))\""
            + " x2=\"\(f(splitX + offset + 3))\" y2=\"\(f(plotBottom - 5))\""
            + " stroke=\"#555\" stroke-width=\"1.5\"/>")
      }
      svg.append(
        "<text x=\"\(f(splitX))\" y=\"\(f(plotBottom + 34))\" text-anchor=\"middle\""
          + " fill=\"#555\">scale changes at the first frame</text>")
    }
    let axisTitleX = split == nil ? gutter + plot / 2 : (splitX + gutter + plot) / 2
    svg.append(
      "<text x=\"\(f(axisTitleX))\" y=\"\(f(plotBottom + 34))\" text-anchor=\"middle\""
        + " fill=\"#555\">time since process start</text>")
    // Bars.
    var barTop: [BuildRecord: Double] = [:]
    for thread in threads {
      for (lane, lineBuilds) in (lanesOf[thread] ?? []).enumerated() {
        for build in lineBuilds {
          let barY = (rowTop[thread] ?? top) + Double(lane) * laneHeight
          barTop[build] = barY
          let barX = x(build.start)
          let barWidth = max(1.5, x(build.end) - barX)
          let colour = Self.colour(of: build.stage)
          let failed = build.outcome != .built
          let stroke =
            failed
            ? " stroke=\"#c00000\" stroke-width=\"2\" stroke-dasharray=\"3 2\" fill-opacity=\"0.45\""
            : ""
          var tooltip =
            "\(build.service): \(milliseconds(build.duration)) (self \(milliseconds(build.selfDuration)))"
            + ", \(build.priority), \(build.trigger), starts at \(milliseconds(build.start))"
          if let error = build.error { tooltip += "; \(error)" }
          svg.append(
            "<g><title>\(escape(tooltip))</title><rect x=\"\(f(barX))\" y=\"\(f(barY))\""
              + " width=\"\(f(barWidth))\" height=\"16\" rx=\"2\" fill=\"\(colour)\"\(stroke)/>")
          let fits = Int((barWidth - 6) / 6.2)
          if fits >= 3 {
            let ink = failed ? "#5a0000" : "#ffffff"
            svg.append(
              "<text x=\"\(f(barX + 3))\" y=\"\(f(barY + 12))\" fill=\"\(ink)\">"
                + "\(escape(clip(build.service, fits)))</text>")
          }
          svg.append("</g>")
        }
      }
    }
    // The main thread's waits for other threads' builds: each ends when the build it waited for
    // ends.
    var waitTop: [BuildRecord: Double] = [:]
    if let mainThread = threads.first(where: { thread in
      builds.contains { $0.thread == thread && $0.isMainThread }
    }) {
      for hazard in hazards where hazard.kind == .mainThreadWait {
        guard let duration = hazard.duration,
          let build = builds.last(where: { $0.service == hazard.service && $0.waited > .zero })
        else { continue }
        let start = build.end > duration ? build.end - duration : .zero
        let barY = (rowTop[mainThread] ?? top) + 2
        waitTop[build] = barY - 2
        svg.append(
          "<g><title>\(escape(hazard.detail))</title><rect x=\"\(f(x(start)))\" y=\"\(f(barY))\""
            + " width=\"\(f(max(1.5, x(build.end) - x(start))))\" height=\"12\" fill=\"#9aa0a6\""
            + " fill-opacity=\"0.55\" stroke=\"#5f6368\" stroke-dasharray=\"2 2\"/></g>")
      }
    }
    // Arrows from what waited to the end of the build it waited for, at the time the wait
    // ended.
    var arrows: [String] = []
    for build in builds where build.waited > .zero {
      guard let target = barTop[build] else { continue }
      for waiter in build.waiters {
        var from: Double?
        var who = waiter
        if let waiting = waitingBuild(waiter, for: build) {
          from = barTop[waiting]
          who = waiting.service
        } else if rowTop[waiter] != nil {
          from = waitTop[build] ?? rowTop[waiter]
        }
        guard let from, from != target else { continue }
        let arrowX = max(x(build.start) + 1, x(build.end) - 2)
        let (y1, y2) = from < target ? (from + 8, target - 1) : (from + 8, target + 17)
        arrows.append(
          "<line x1=\"\(f(arrowX))\" y1=\"\(f(y1))\" x2=\"\(f(arrowX))\" y2=\"\(f(y2))\""
            + " stroke=\"#333\" stroke-width=\"1.2\" marker-end=\"url(#waited)\">"
            + "<title>\(escape("\(who) waited for \(build.service)"))</title></line>")
      }
    }
    if !arrows.isEmpty {
      svg.append(
        "<defs><marker id=\"waited\" viewBox=\"0 0 8 8\" refX=\"7\" refY=\"4\""
          + " markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">"
          + "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#333\"/></marker></defs>")
      svg += arrows
    }
    // Milestones, on the label rows worked out above.
    for label in labels {
      let labelY = 50 + Double(label.row) * 12
      svg.append(
        "<line x1=\"\(f(label.line))\" y1=\"\(f(labelY + 3))\" x2=\"\(f(label.line))\""
          + " y2=\"\(f(plotBottom))\" stroke=\"#222\" stroke-width=\"1.2\" stroke-dasharray=\"5 3\"/>"
      )
      let anchor = label.leftward ? " text-anchor=\"end\"" : ""
      svg.append(
        "<text x=\"\(f(label.leftward ? label.line - 3 : label.line + 3))\" y=\"\(f(labelY))\""
          + " fill=\"#222\"\(anchor)>\(escape(label.text))</text>")
    }
    svg.append("</svg>")
    return svg.joined(separator: "\n") + "\n"
  }

  /// The colour of a stage's bars.
  static func colour(of stage: LaunchStage) -> String {
    switch stage {
    case .critical: "#d1495b"
    case .afterFirstFrame: "#2e86ab"
    case .idle: "#3f9e4d"
    case .onDemand: "#8e6bbf"
    }
  }

  /// The share of the plot's width before the break of a broken axis.
  static let splitShare = 0.25

  /// Where the axis breaks, in nanoseconds: at the first frame, when it comes in the first
  /// tenth of the launch (the time before it would otherwise be a sliver); `nil` for one scale.
  static func axisSplit(firstFrame: Duration?, span: Double) -> Double? {
    guard let firstFrame, firstFrame > .zero else { return nil }
    let time = Double(firstFrame.nanoseconds)
    return time < span * 0.1 ? time : nil
  }

  /// A thread's name as a lane's label, at most 24 characters: a Dispatch worker named after
  /// its queue's quality of service (on Linux the name keeps only its last 15 characters,
  /// `oot.utility-qos`) is named by that quality of service; a longer name is shortened at a
  /// word, never within one.
  static func laneName(_ thread: String) -> String {
    let qualities = [
      "user-interactive", "user-initiated", "utility", "background", "default", "maintenance",
    ]
    var name = thread
    var number = ""
    if let open = thread.lastIndex(of: "("), thread.hasSuffix(")") {
      name = String(thread[..<open]).trimmingSuffix(" ")
      number = " " + String(thread[open...])
    }
    if name.hasSuffix("-qos") || name.hasSuffix("-qos.overcommit") {
      let stem = name.hasSuffix(".overcommit") ? name.dropLast(15) : name.dropLast(4)
      // The name may have lost its start: match a quality by the end it kept.
      let kept = stem.split(separator: ".").last.map(String.init) ?? ""
      if kept.count >= 4, let quality = qualities.first(where: { $0.hasSuffix(kept) }) {
        return quality + " queue" + number
      }
    }
    let limit = 24
    guard thread.count > limit else { return thread }
    let words = thread.split(separator: " ", omittingEmptySubsequences: false)
    var label = ""
    for word in words {
      let next = label.isEmpty ? String(word) : label + " " + word
      if next.count > limit - 1 { break }
      label = next
    }
    return label.isEmpty ? String(thread.prefix(limit - 1)) + "…" : label + "…"
  }

  /// A round tick step (1, 2 or 5 times a power of ten, in nanoseconds) for about 10 ticks.
  static func tickStep(for span: UInt64) -> UInt64 {
    var magnitude: UInt64 = 1_000
    while true {
      for factor: UInt64 in [1, 2, 5] where span / (magnitude * factor) <= 10 {
        return magnitude * factor
      }
      magnitude *= 10
    }
  }

  static func tickLabel(_ tick: UInt64, step: UInt64) -> String {
    if step >= 1_000_000_000 { return "\(tick / 1_000_000_000) s" }
    if step >= 1_000_000 { return "\(tick / 1_000_000) ms" }
    let tenths = tick / 100_000
    return "\(tenths / 10).\(tenths % 10) ms"
  }
}

private func f(_ value: Double) -> String {
  let rounded = (value * 10).rounded() / 10
  return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}

private func escape(_ text: String) -> String {
  text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;")
    .replacingAll(">", with: "&gt;").replacingAll("\"", with: "&quot;")
}

extension String {
  /// The string without the trailing characters equal to `character`.
  fileprivate func trimmingSuffix(_ character: Character) -> String {
    var result = self
    while result.last == character { result.removeLast() }
    return result
  }
}

private func clip(_ text: String, _ limit: Int) -> String {
  text.count <= limit ? text : String(text.prefix(max(1, limit - 1))) + "…"
}
