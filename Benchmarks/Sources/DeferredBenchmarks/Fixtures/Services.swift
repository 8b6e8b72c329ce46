import Dependencies
import Synchronization

/// A service every other one needs: the singleton the cached scenarios resolve.
final class Storage: Sendable {
  init() {}
}

/// A service built anew on every resolve, from the shared ``Storage``.
final class Clock: Sendable {
  let storage: Storage
  init(_ storage: Storage) { self.storage = storage }
}

/// The hand-written alternative to a container: a lazy value behind a mutex.
final class LazyStorage: Sendable {
  private let value = Mutex<Storage?>(nil)

  var storage: Storage {
    value.withLock { value in
      if let value { return value }
      let made = Storage()
      value = made
      return made
    }
  }
}

/// The cheapest way to share a value in Swift: a global `static let`, made on first use.
enum StaticStorage {
  static let storage = Storage()
}

// MARK: - swift-dependencies

/// ``Storage`` as a swift-dependencies dependency, read as `@Dependency(\.benchStorage)`.
enum StorageKey: DependencyKey {
  static let liveValue = Storage()
}

/// swift-dependencies caches every dependency's value: it has no transient scope. Its way to get a
/// new value on each use is a dependency that is a factory. This one's `liveValue` declares the
/// ``Storage`` dependency and its `make` reads it on each call, so every new ``Clock`` costs a
/// read of the factory and a read of the storage.
struct ClockFactory: Sendable {
  let make: @Sendable () -> Clock
}

enum ClockFactoryKey: DependencyKey {
  static var liveValue: ClockFactory {
    let storage = Dependency(\.benchStorage)
    return ClockFactory { Clock(storage.wrappedValue) }
  }
}

/// A dependency for no scenario: read once in a cold process before the timed reads, so that
/// they do not pay for the library's own first use.
final class Warmup: Sendable {
  init() {}
}

enum WarmupKey: DependencyKey {
  static var liveValue: Warmup { Warmup() }
}

extension DependencyValues {
  var benchStorage: Storage {
    get { self[StorageKey.self] }
    set { self[StorageKey.self] = newValue }
  }

  var clockFactory: ClockFactory {
    get { self[ClockFactoryKey.self] }
    set { self[ClockFactoryKey.self] = newValue }
  }

  var warmup: Warmup {
    get { self[WarmupKey.self] }
    set { self[WarmupKey.self] = newValue }
  }
}
