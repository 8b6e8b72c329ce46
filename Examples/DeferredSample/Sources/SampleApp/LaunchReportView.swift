import Deferred
import DeferredReports
import DeferredSwiftUI
import SwiftUI

/// A debug screen: the app's own launch report, as text, refreshed on demand.
public struct LaunchReportView: View {
  @Environment(\.deferredContainer) private var container
  @State private var report = ""

  /// Makes the screen.
  public init() {}

  /// The report, scrollable, in a monospaced font.
  public var body: some View {
    ScrollView([.horizontal, .vertical]) {
      Text(report)
        .font(.system(.footnote, design: .monospaced))
        .textSelection(.enabled)
        .padding()
    }
    .navigationTitle("Launch report")
    .toolbar {
      Button("Refresh") { refresh() }
    }
    .onAppear { refresh() }
  }

  private func refresh() {
    report = container?.launchReport().text() ?? "No container in the environment."
  }
}

/// The debug screen with a preview's container: the app's own registrations, with storage in
/// a temporary folder, launched as the app would be. (`#Preview` needs Xcode's macro; this
/// form compiles everywhere.)
struct LaunchReportViewPreviews: PreviewProvider {
  static var previews: some View {
    NavigationStack { LaunchReportView() }
      .deferredContainer(
        .preview(registering: AppServices.register(in:)) { container in
          try container.register(Storage.self, replacing: true) {
            Storage(directory: FileManager.default.temporaryDirectory)
          }
        })
  }
}
