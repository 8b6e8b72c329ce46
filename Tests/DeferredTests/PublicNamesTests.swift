import Deferred
import DeferredHistory
import DeferredReports
import Foundation
import Testing

/// Every public type of Deferred and DeferredReports, named unqualified in a file that imports
/// Foundation, as every app file does (UIKit and SwiftUI re-export it): if a name were
/// ambiguous beside Foundation's, this file would not compile.
@Suite struct PublicNamesTests {
  private static func named<T: ~Copyable>(_: T.Type) -> Int { 1 }

  @Test func everyPublicTypeIsUnambiguousBesideFoundation() {
    let count =
      Self.named(Container.self) + Self.named(ServiceKey<Int>.self) + Self.named(Scope.self)
      + Self.named(Priority.self) + Self.named(BuildQoS.self) + Self.named(LaunchStage.self)
      + Self.named(LaunchFlag.self) + Self.named(Resolver.self) + Self.named(DeferredError.self)
      + Self.named(DeferredError.Code.self) + Self.named(Recording.self)
      + Self.named(LaunchScheduler.self) + Self.named(DispatchScheduler.self)
      + Self.named(ManualScheduler.self) + Self.named(LaunchJob.self)
      + Self.named(LaunchClock.self) + Self.named(MonotonicClock.self)
      + Self.named(ManualClock.self) + Self.named(ProcessStart.self)
      + Self.named(LaunchReport.self) + Self.named(BuildRecord.self)
      + Self.named(BuildTrigger.self) + Self.named(TransientRecord.self)
      + Self.named(Milestone.self) + Self.named(Hazard.self) + Self.named(LaunchBudget.self)
      + Self.named(BudgetViolation.self) + Self.named(ValidationIssue.self)
      + Self.named(WaitEvent.self) + Self.named(JSONError.self)
      + Self.named(ServiceHandle<Int>.self)
      + Self.named(LaunchHistory.self) + Self.named(LaunchHistoryStorage.self)
      + Self.named(LaunchHistoryStorageError.self) + Self.named(DirectoryHistoryStorage.self)
      + Self.named(MemoryHistoryStorage.self) + Self.named(RegressionThreshold.self)
      + Self.named(Advice.self) + Self.named(LaunchPrediction.self)
      + Self.named(BackgroundBound.self)
      + Self.named(FactoryKey<Int, Int>.self) + Self.named(CollectionKey<Int>.self)
      + Self.named((any Module).self) + Self.named(LaunchEvent.self)
    #expect(count == 44)
    // The name Deferred once used is Foundation's alone again: unqualified, it is not
    // ambiguous (it was: "'QualityOfService' is ambiguous for type lookup").
    let foundationQoS: QualityOfService = .utility
    #expect(foundationQoS == Foundation.QualityOfService.utility)
    #expect(BuildQoS.utility.description == "utility")
  }
}
