import Deferred
import Foundation
import Synchronization
import Testing

/// What reset observers were told, from any thread.
final class ResetLog: Sendable {
  private let resets = Mutex<[ScopeReset]>([])
  func append(_ reset: ScopeReset) { resets.withLock { $0.append(reset) } }
  var all: [ScopeReset] { resets.withLock { $0 } }
}

@Suite struct ResetObservationTests {
  @Test func anObserverHearsWhatAResetDroppedAndCanResolveTheNextGeneration() throws {
    let container = Container()
    let counter = Counter()
    try container.register(Session.self, scope: .session) { Session(counter.next()) }
    try container.register(Inbox.self, Inbox.init(session:))
    try container.register(Numbered.self) { Numbered(0) }
    _ = try container.resolve(Inbox.self)
    _ = try container.resolve(Numbered.self)
    let log = ResetLog()
    let next = Mutex<Int?>(nil)
    let observation = container.onReset { reset in
      log.append(reset)
      // Under no lock of the container: resolving builds the next generation here.
      next.withLock { $0 = try? container.resolve(Session.self).number }
    }
    #expect(container.reset(.session) == ["Inbox", "Session"])
    let reset = try #require(log.all.first)
    #expect(log.all.count == 1)
    #expect(reset.scope == .session)
    #expect(reset.services == ["Inbox", "Session"])
    #expect(reset.dropped(Session.self) && reset.dropped(Inbox.self))
    #expect(!reset.dropped(Numbered.self))
    #expect(!reset.dropped(Session.self, name: "other"))
    #expect(next.withLock { $0 } == 2)
    withExtendedLifetime(observation) {}
  }

  @Test func aResetThatDropsNothingIsNotTold() throws {
    let container = Container()
    try container.register(Session.self, scope: .session) { Session(1) }
    let log = ResetLog()
    let observation = container.onReset { log.append($0) }
    #expect(container.reset(.session).isEmpty)  // never built
    #expect(container.reset(.singleton).isEmpty)
    #expect(log.all.isEmpty)
    withExtendedLifetime(observation) {}
  }

  @Test func aCancelledOrReleasedObservationIsNotCalled() throws {
    let container = Container()
    let counter = Counter()
    try container.register(Session.self, scope: .session) { Session(counter.next()) }
    let log = ResetLog()
    let cancelled = container.onReset { log.append($0) }
    cancelled.cancel()
    var released: ResetObservation? = container.onReset { log.append($0) }
    #expect(released != nil)
    released = nil
    _ = try container.resolve(Session.self)
    #expect(container.reset(.session) == ["Session"])
    #expect(log.all.isEmpty)
  }

  @Test func aChildsObserverHearsAParentsResetOfWhatTheChildSees() throws {
    let parent = Container()
    let counter = Counter()
    try parent.register(Session.self, scope: .session) { Session(counter.next()) }
    let child = parent.makeChild()
    let first = try child.resolve(Session.self)  // the parent's node, shared
    let log = ResetLog()
    let observation = child.onReset { log.append($0) }
    #expect(parent.reset(.session) == ["Session"])
    #expect(log.all.count == 1)
    #expect(log.all.first?.dropped(Session.self) == true)
    #expect(try child.resolve(Session.self) !== first)
    withExtendedLifetime(observation) {}
  }

  @Test func theNewNamesAreUnambiguousBesideFoundation() {
    let types: [Any.Type] = [ScopeReset.self, ResetObservation.self]
    #expect(types.count == 2)
  }
}
