import SampleApp

/// The app's entry point: the app itself is ``SampleApp/SampleApplication``, in the library,
/// so that it is compiled for iOS with the rest.
@main
@MainActor
enum DeferredSampleApp {
  static func main() {
    SampleApplication.main()
  }
}
