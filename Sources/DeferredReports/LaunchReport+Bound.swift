import Deferred

extension LaunchReport {
  /// The least time the work after this launch's first frame could have taken on `cores`
  /// threads, whatever order it ran in: the longer of its critical path and its work shared
  /// among the cores; with the time it took, to see how far from ideal the schedule was.
  ///
  /// It counts the builds that started at or after the first frame (scheduled ones, and those
  /// made on demand meanwhile), each service's builds by their own time
  /// (`BuildRecord.selfDuration`):
  ///
  /// - The critical path is the heaviest chain of them by `dependencies`: no schedule ends
  ///   before its builds have run one after another.
  /// - The work is the own time of those that held a worker thread: not async builds (thread
  ///   `task`, which hold no thread while they wait, as the launch schedule counts them) nor
  ///   main-thread ones (the main-thread lane is not one of the cores). No schedule ends before
  ///   the cores have done it.
  ///
  /// ```swift
  /// let bound = report.idealBackgroundBound(cores: container.maxConcurrentBuilds)
  /// print(bound?.ratio ?? .nan)  // 1.0 is ideal
  /// ```
  ///
  /// - Parameter cores: How many synchronous builds could run at once: the container's
  ///   `Container.maxConcurrentBuilds`; at least 1.
  /// - Returns: The bound, or `nil` for a report without a first frame.
  public func idealBackgroundBound(cores: Int) -> BackgroundBound? {
    guard hasFiguresInRange else { return figuresInRange.idealBackgroundBound(cores: cores) }
    guard let firstFrame = offset(of: .firstFrame) else { return nil }
    var cost: [String: Duration] = [:]
    var work = Duration.zero
    var order: [String] = []
    for build in builds where build.start >= firstFrame {
      if cost[build.service] == nil { order.append(build.service) }
      cost[build.service, default: .zero] += build.selfDuration
      if !build.isMainThread && build.thread != "task" { work += build.selfDuration }
    }
    let chain = heaviestChain(
      services: cost.keys.sorted(), dependencies: dependencies, cost: cost)
    let ready = offset(of: .fullyReady)
    return BackgroundBound(
      criticalPath: chain.total, chain: chain.path.reversed(), work: work, cores: max(1, cores),
      took: ready.map { $0 > firstFrame ? $0 - firstFrame : .zero }, order: order)
  }
}

/// The least time a launch's work after its first frame could have taken, and what it took:
/// ``Deferred/LaunchReport/idealBackgroundBound(cores:)``.
///
/// The bound is `max(criticalPath, work / cores)`, the classic lower bound of list
/// scheduling: no order beats it, and an order that never leaves a core idle while a build is
/// ready ends within twice of it (Graham's bound); the longest remaining path first usually
/// ends much closer.
public struct BackgroundBound: Sendable, Hashable, Codable {
  /// The own time of the heaviest chain of dependencies among the builds after the first
  /// frame.
  public var criticalPath: Duration
  /// That chain, in the order it must run: each service needs the one before it.
  public var chain: [String]
  /// The own time of the builds after the first frame that held a worker thread.
  public var work: Duration
  /// How many synchronous builds could run at once.
  public var cores: Int
  /// From the first frame to full readiness, if the launch was fully ready.
  public var took: Duration?
  /// The services built after the first frame, in the order their builds started.
  public var order: [String]

  /// Creates a bound.
  ///
  /// - Parameters:
  ///   - criticalPath: The heaviest chain's own time.
  ///   - chain: The chain, dependencies first.
  ///   - work: The own time of the builds that held a worker thread.
  ///   - cores: How many synchronous builds could run at once; at least 1.
  ///   - took: From the first frame to full readiness.
  ///   - order: The services built after the first frame, in the order they started.
  public init(
    criticalPath: Duration, chain: [String], work: Duration, cores: Int, took: Duration?,
    order: [String]
  ) {
    self.criticalPath = criticalPath
    self.chain = chain
    self.work = work
    self.cores = max(1, cores)
    self.took = took
    self.order = order
  }

  /// The work shared among the cores.
  public var sharedWork: Duration { work / max(1, cores) }

  /// The bound: the longer of the critical path and the shared work.
  public var bound: Duration { max(criticalPath, sharedWork) }

  /// What the work after the first frame took over the bound: 1 is ideal; `nil` if the launch
  /// was not fully ready or the bound is zero.
  public var ratio: Double? {
    guard let took, bound > .zero else { return nil }
    return took / bound
  }
}
