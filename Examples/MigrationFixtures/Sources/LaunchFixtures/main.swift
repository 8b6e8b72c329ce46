import FitnessApp
import StationApp

// Launches both migrated composition roots on the main thread, as an app does; each stops
// with the reason if a step fails.
MainActor.assumeIsolated {
  do {
    print(try StationApp.launchForCheck())
    print(try FitnessApp.launchForCheck())
  } catch {
    fatalError("\(error)")
  }
}
