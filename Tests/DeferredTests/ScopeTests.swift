import DeferredReports
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Deferred

extension Scope {
  static let session = Scope.named("session")
}

/// A value numbered in the order its factory made it, to tell generations apart.
final class Numbered: Sendable {
  let number: Int
  init(_ number: Int) { self.number = number }
}

final class Session: Sendable {
  let number: Int
  init(_ number: Int) { self.number = number }
}

final class Inbox: Sendable {
  let session: Session
  init(session: Session) { self.session = session }
}

/// A transient between a singleton and the session.
struct Greeter: Sendable {
  let session: Session
}

final class Feed: Sendable {
  let greeter: Greeter
  init(greeter: Greeter) { self.greeter = greeter }
}

protocol Editing: AnyObject, Sendable {
  var number: Int { get }
}

final class Editor: Editing {
  let number: Int
  init(_ number: Int) { self.number = number }
}

protocol Plain: Sendable {}
struct PlainValue: Plain {}

/// A counter that numbers what a factory makes.
final class Counter: Sendable {
  private let value = Atomic<Int>(0)
  func next() -> Int { value.add(1, ordering: .relaxed).newValue }
  var count: Int { value.load(ordering: .relaxed) }
}

@Suite struct ScopeTests {
  // MARK: - Weak

  @Test func aWeakServiceIsSharedWhileHeldAndBuiltAnewOnceLetGo() throws {
    let container = Container()
    let made = Counter()
    try container.register((any Editing).self, scope: .weakObject) { Editor(made.next()) }
    weak var first: Editor?
    do {
      let one = try container.resolve((any Editing).self)
      let two = try container.resolve((any Editing).self)
      #expect(one === two)
      #expect(made.count == 1)
      first = one as? Editor
    }
    // The container kept only a weak reference: the last holder let go, the editor is gone.
    #expect(first == nil)
    let again = try container.resolve((any Editing).self)
    #expect(again.number == 2 && made.count == 2)
  }

  @Test func aWeakClassServiceHoldsNoStrongReference() throws {
    let container = Container()
    let made = Counter()
    try container.register(Numbered.self, scope: .weak) { Numbered(made.next()) }
    weak var probe: Numbered?
    do {
      let held = try container.resolve(Numbered.self)
      probe = held
      #expect(try container.resolve(Numbered.self) === held)
    }
    #expect(probe == nil)
    #expect(try container.resolve(Numbered.self).number == 2)
  }

  @Test func aWeakServiceThatIsNotAnObjectIsRefusedAtRegistration() {
    let container = Container()
    #expect {
      try container.register(PlainValue.self, scope: .weakObject) { PlainValue() }
    } throws: { error in
      (error as? DeferredError)?.code == .invalidScope
        && (error as? DeferredError)?.service == "PlainValue"
    }
    // A protocol not bound to classes may hold a struct: refused too.
    #expect {
      try container.register((any Plain).self, scope: .weakObject) { PlainValue() }
    } throws: { error in
      (error as? DeferredError)?.code == .invalidScope
    }
    #expect(throws: Never.self) {
      try container.register(Numbered.self, scope: .weak) { Numbered(1) }
    }
  }

  /// A protocol bound to classes with a primary associated type, as a constrained existential
  /// (`any Viewing<Int>`): an object, held weakly; one not bound to classes is refused.
  @Test func aWeakConstrainedExistentialOfAClassBoundProtocolIsAnObject() throws {
    let container = Container()
    let made = Counter()
    try container.register((any Viewing<Int>).self, scope: .weakObject) { IntViewer(made.next()) }
    weak var probe: IntViewer?
    do {
      let held = try container.resolve((any Viewing<Int>).self)
      probe = held as? IntViewer
      #expect(try container.resolve((any Viewing<Int>).self) === held)
      #expect(held.shown == 1)
    }
    #expect(probe == nil)
    #expect(try container.resolve((any Viewing<Int>).self).shown == 2)
    #expect(isObjectType((any Viewing<String>).self))
    #expect(isObjectType((any Viewing<Int> & Sendable).self))
    #expect(!isObjectType((any Showing<Int>).self))
    #expect(!isObjectType((any Showing<Int> & Sendable).self))
    #expect {
      try container.register((any Showing<Int>).self, scope: .weakObject) { ShownValue() }
    } throws: { error in
      (error as? DeferredError)?.code == .invalidScope
    }
  }

  // MARK: - Named scopes

  /// Session, Inbox (a singleton with the session), Feed (a singleton with a transient with
  /// the session), and Storage, a singleton that has nothing to do with it.
  func sessionContainer(_ made: Counter, _ runs: Runs, recording: Recording = .timings)
    throws -> Container
  {
    let container = Container(recording: recording)
    try container.register(Session.self, scope: .session) {
      runs.tick("Session")
      return Session(made.next())
    }
    try container.register(Inbox.self) { (session: Session) in
      runs.tick("Inbox")
      return Inbox(session: session)
    }
    try container.register(Greeter.self, scope: .transient) { (session: Session) in
      Greeter(session: session)
    }
    try container.register(Feed.self) { (greeter: Greeter) in
      runs.tick("Feed")
      return Feed(greeter: greeter)
    }
    try container.register(Storage.self) {
      runs.tick("Storage")
      return Storage()
    }
    return container
  }

  @Test func aNamedScopeIsCachedUntilResetWhichDropsItAndItsDependents() throws {
    let made = Counter()
    let runs = Runs()
    let container = try sessionContainer(made, runs)
    let session = try container.resolve(Session.self)
    let inbox = try container.resolve(Inbox.self)
    let feed = try container.resolve(Feed.self)
    let storage = try container.resolve(Storage.self)
    #expect(try container.resolve(Session.self) === session)
    #expect(inbox.session === session && feed.greeter.session === session)

    #expect(container.reset(.session) == ["Feed", "Inbox", "Session"])
    let newSession = try container.resolve(Session.self)
    #expect(newSession !== session && newSession.number == 2)
    let newInbox = try container.resolve(Inbox.self)
    #expect(newInbox !== inbox && newInbox.session === newSession)
    #expect(try container.resolve(Feed.self).greeter.session === newSession)
    // Not built with the session: kept.
    #expect(try container.resolve(Storage.self) === storage)
    #expect(runs["Session"] == 2 && runs["Inbox"] == 2 && runs["Feed"] == 2)
    #expect(runs["Storage"] == 1)
    // Other scopes hold nothing a reset could drop.
    #expect(container.reset(.singleton).isEmpty && container.reset(.weakObject).isEmpty)
    #expect(try container.resolve(Inbox.self) === newInbox)
  }

  /// Resolves the session's services and returns weak probes of them.
  private func probes(_ container: Container) throws -> (session: Session?, inbox: Inbox?) {
    (try container.resolve(Session.self), try container.resolve(Inbox.self))
  }

  @Test func theOldGenerationIsFreedOnceItsLastHolderLetsGo() throws {
    let container = try sessionContainer(Counter(), Runs())
    weak var oldSession: Session?
    weak var oldInbox: Inbox?
    do {
      let (session, inbox) = try probes(container)
      oldSession = session
      oldInbox = inbox
    }
    #expect(oldSession != nil && oldInbox != nil)  // the container keeps them
    container.reset(.session)
    // Nothing keeps the old session alive: not the container, not a singleton built with it.
    #expect(oldSession == nil && oldInbox == nil)
  }

  @Test func aResetDuringABuildNeitherLosesNorMixesGenerations() throws {
    let container = Container()
    let made = Counter()
    let started = Signal()
    let proceed = Signal()
    let firstRun = Atomic<Bool>(true)
    try container.register(Session.self, scope: .session) {
      let number = made.next()
      if firstRun.exchange(false, ordering: .relaxed) {
        started.fire()
        proceed.wait()
      }
      return Session(number)
    }
    let waiting = Signal()
    container.onWait { _ in waiting.fire() }
    let builderGot = Locked<Session?>(nil)
    let waiterGot = Locked<Session?>(nil)
    let done = DispatchGroup()
    done.enter()
    startThread {
      builderGot.withLock { $0 = try? container.resolve(Session.self) }
      done.leave()
    }
    started.wait()
    // A caller that asked before the reset waits for the build under way.
    done.enter()
    startThread {
      waiterGot.withLock { $0 = try? container.resolve(Session.self) }
      done.leave()
    }
    waiting.wait()
    container.onWait(nil)

    #expect(container.reset(.session) == ["Session"])
    // Asked after the reset: a new build, not the one under way.
    let after = try container.resolve(Session.self)
    #expect(after.number == 2)
    proceed.fire()
    done.wait()
    let builder = try #require(builderGot.withLock { $0 })
    let waiter = try #require(waiterGot.withLock { $0 })
    // Those who asked before get the old generation, one and the same value.
    #expect(builder.number == 1 && waiter === builder)
    // The old build was not cached into the new generation; no factory ran twice for one.
    #expect(try container.resolve(Session.self) === after)
    #expect(made.count == 2)
  }

  @Test func concurrentResolvesDuringResetsStayConsistent() throws {
    let made = Counter()
    let runs = Runs()
    let container = try sessionContainer(made, runs)
    let resets = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 8) { index in
      for round in 0..<200 {
        if index == 0 && round % 4 == 0 {
          if !container.reset(.session).isEmpty { resets.add(1, ordering: .relaxed) }
          continue
        }
        guard let inbox = try? container.resolve(Inbox.self),
          let feed = try? container.resolve(Feed.self),
          let session = try? container.resolve(Session.self)
        else {
          Issue.record("a resolve failed")
          return
        }
        _ = (inbox.session.number, feed.greeter.session.number, session.number)
      }
    }
    // At most one session per generation.
    #expect(made.count <= resets.load(ordering: .relaxed) + 1)
    // Once the resets stop, everything agrees on one session.
    let session = try container.resolve(Session.self)
    #expect(try container.resolve(Inbox.self).session === session)
    #expect(try container.resolve(Feed.self).greeter.session === session)
    #expect(runs["Storage"] == 0)
  }

  @Test func aScopedServiceTakesPartInTheLaunchAndIsBuiltOnDemandAfterAReset() throws {
    let scheduler = ManualScheduler()
    let container = Container(scheduler: scheduler, clock: scheduler.clock)
    let made = Counter()
    let runs = Runs()
    try container.register(Session.self, scope: .session, priority: .critical) {
      runs.tick("Session")
      return Session(made.next())
    }
    try container.register(Inbox.self, scope: .session, priority: .afterFirstFrame()) {
      (session: Session) in
      runs.tick("Inbox")
      return Inbox(session: session)
    }
    try container.launch()
    #expect(runs["Session"] == 1 && runs["Inbox"] == 0)
    try container.firstFrameDrawn()
    #expect(scheduler.runAll() > 0)
    #expect(runs["Inbox"] == 1)
    let inbox = try container.resolve(Inbox.self)
    #expect(inbox.session.number == 1 && runs["Inbox"] == 1)

    #expect(container.reset(.session) == ["Inbox", "Session"])
    // Not scheduled again: built when next needed.
    #expect(scheduler.queued.isEmpty)
    #expect(runs["Session"] == 1)
    let newInbox = try container.resolve(Inbox.self)
    #expect(newInbox.session.number == 2 && runs["Inbox"] == 2 && runs["Session"] == 2)
  }

  @Test func recordingShowsEachGenerationsBuilds() throws {
    let container = try sessionContainer(Counter(), Runs())
    _ = try container.resolve(Inbox.self)
    container.reset(.session)
    _ = try container.resolve(Inbox.self)
    let report = container.launchReport()
    let sessions = report.builds.filter { $0.service == "Session" }.map(\.generation)
    let inboxes = report.builds.filter { $0.service == "Inbox" }.map(\.generation)
    #expect(sessions == [0, 1] && inboxes == [0, 1])
    let storage = report.builds.filter { $0.service == "Storage" }
    #expect(storage.isEmpty)
    // JSON and text carry it; a report written before scopes reads as generation 0.
    let json = report.json()
    #expect(json.contains("\"generation\":1"))
    let decoded = try LaunchReport(json: json)
    #expect(decoded.builds.map(\.generation) == report.builds.map(\.generation))
    #expect(report.text().contains("generation 1"))
    let coded = try JSONDecoder().decode(LaunchReport.self, from: JSONEncoder().encode(report))
    #expect(coded.builds.map(\.generation) == report.builds.map(\.generation))
    let old = json.replacingOccurrences(of: ",\"generation\":1", with: "")
    #expect(try LaunchReport(json: old).builds.allSatisfy { $0.generation == 0 })
  }

  @Test func anAsyncScopedServiceIsHeldAndReset() async throws {
    let container = Container()
    let made = Counter()
    try container.register(Session.self, scope: .session) { () async throws in
      Session(made.next())
    }
    let first = try await container.awaitService(Session.self)
    #expect(try await container.awaitService(Session.self) === first)
    // Built: the synchronous resolve finds it.
    #expect(try container.resolve(Session.self) === first)
    container.reset(.session)
    #expect(try await container.awaitService(Session.self).number == 2)
  }

  // MARK: - Children

  @Test func aResetInTheParentReachesTheChildsCopiesAndAChildResetsOnlyItsOwn() throws {
    let parent = Container()
    let made = Counter()
    try parent.register(Session.self, scope: .session) { Session(made.next()) }
    try parent.register(Network.self) { Network() }
    try parent.register(SyncService.self) { (session: Session, network: Network) in
      _ = session
      return SyncService(storage: Storage(label: "\(session.number)"), network: network)
    }
    let child = parent.makeChild()
    try child.register(Network.self) { Network(online: false) }
    let childSync = try child.resolve(SyncService.self)  // the child's copy
    #expect(childSync.storage.label == "1" && !childSync.network.online)
    #expect(try child.resolve(Session.self) === parent.resolve(Session.self))

    // The child has no session of its own: its reset leaves the parent's alone.
    #expect(child.reset(.session).isEmpty)
    #expect(try child.resolve(SyncService.self) === childSync)

    // The parent's reset drops the child's copy built with the old session too.
    #expect(parent.reset(.session) == ["Session", "SyncService"])
    let newSync = try child.resolve(SyncService.self)
    #expect(newSync !== childSync && newSync.storage.label == "2")
    #expect(try child.resolve(Session.self).number == 2)
  }

  @Test func aChildsOwnScopedRegistrationIsResetInTheChildOnly() throws {
    let parent = Container()
    let made = Counter()
    try parent.register(Session.self, scope: .session) { Session(made.next()) }
    let parentSession = try parent.resolve(Session.self)
    let child = parent.makeChild()
    try child.register(Session.self, scope: .session) { Session(100 + made.next()) }
    let childSession = try child.resolve(Session.self)
    #expect(childSession.number == 102)
    #expect(child.reset(.session) == ["Session"])
    #expect(try parent.resolve(Session.self) === parentSession)
    #expect(try child.resolve(Session.self).number == 103)
  }

  // MARK: - Validation

  @Test func validationWarnsOfScopesThatDefeatEachOther() throws {
    let container = Container()
    try container.register(Numbered.self, scope: .weak, priority: .critical) { Numbered(1) }
    try container.register(Inbox.self) { (numbered: Numbered) in
      Inbox(session: Session(numbered.number))
    }
    let warnings = container.validate().filter { $0.code == .scopeMismatch }
    #expect(warnings.count == 2)
    #expect(warnings.contains { $0.chain == ["Numbered"] })
    #expect(warnings.contains { $0.chain == ["Inbox", "Numbered"] })
  }
}

/// A protocol bound to classes, with a primary associated type.
protocol Viewing<Shown>: AnyObject, Sendable {
  associatedtype Shown
  var shown: Shown { get }
}

final class IntViewer: Viewing {
  let shown: Int
  init(_ shown: Int) { self.shown = shown }
}

/// A protocol with a primary associated type, not bound to classes.
protocol Showing<Shown>: Sendable {
  associatedtype Shown
  var shown: Shown { get }
}

struct ShownValue: Showing {
  var shown: Int { 0 }
}

/// A reset racing resolves, in a forced interleaving: a resolve that begins once a reset has
/// begun never gets a value of the generation it drops, from the container, a handle, a child
/// that shares the parent's nodes, or a child's copy.
extension ScopeTests {
  @Test(arguments: ["container", "handle", "child", "child copy"])
  func aResolveBegunDuringAResetNeverGetsADroppedGeneration(_ reader: String) throws {
    let made = Counter()
    let container = Container()
    try container.register(Session.self, scope: .session) { Session(made.next()) }
    try container.register(Storage.self) { Storage() }
    try container.register(Inbox.self) { (session: Session, _: Storage) in
      Inbox(session: session)
    }
    let child = container.makeChild()
    if reader == "child copy" {
      // Inbox depends on it: the child builds its own copy of Inbox.
      try child.register(Storage.self) { Storage(label: "child") }
    }
    let sessionHandle = try container.handle(Session.self)
    let inboxHandle = try container.handle(Inbox.self)
    // The session first, then what was built with it.
    let read: @Sendable () throws -> (Session, Inbox) = {
      switch reader {
      case "handle": (try sessionHandle.resolve(), try inboxHandle.resolve())
      case "child", "child copy": (try child.resolve(Session.self), try child.resolve(Inbox.self))
      default: (try container.resolve(Session.self), try container.resolve(Inbox.self))
      }
    }
    let before = try read()
    #expect(before.1.session === before.0)
    // Once the reset has dropped the session, and before it goes on to what was built with
    // it, another thread resolves both: it finishes, or it waits for the reset.
    let got = Locked<(Session, Inbox)?>(nil)
    let settled = Signal()
    let done = Signal()
    container.onWait { event in
      if event.service == "Session" { settled.fire() }
    }
    container.onResetStep { service in
      guard service == "Session" else { return }
      Thread.detach {
        got.withLock { $0 = try? read() }
        settled.fire()
        done.fire()
      }
      settled.wait()
    }
    container.reset(.session)
    done.wait()
    // The observers capture the container: let them go, so the container is freed.
    container.onResetStep(nil)
    container.onWait(nil)
    let (session, inbox) = try #require(got.withLock { $0 })
    #expect(session !== before.0)
    #expect(inbox !== before.1)
    #expect(inbox.session === session)
  }
}
