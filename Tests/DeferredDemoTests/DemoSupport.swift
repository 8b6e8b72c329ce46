import Deferred
import DeferredDemoKit
import Dispatch

/// The demo app's files, installed small in a temporary directory that goes with the fixture.
final class DemoFixture: Sendable {
  let directory: String
  let files: AppFiles

  init() throws {
    directory = try Files.makeTemporaryDirectory(prefix: "deferred-demo-test")
    files = try AppFiles.install(in: directory, workload: .tiny)
  }

  deinit { Files.remove(directory) }
}

/// The service once it is built, without causing its build.
func whenBuilt<Value: Sendable>(_ type: Value.Type, in container: Container) async throws
  -> Value
{
  try await withCheckedThrowingContinuation { continuation in
    do {
      try container.whenReady(Value.self, on: DispatchQueue(label: "test")) {
        continuation.resume(returning: $0)
      }
    } catch {
      continuation.resume(throwing: error)
    }
  }
}
