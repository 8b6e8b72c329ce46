import Deferred
import DeferredSwiftUI
import SwiftUI

/// The app's first screen: the keypad once its model is built, a placeholder before.
public struct RootView: View {
  @Environment(\.deferredContainer) private var container

  /// Makes the root view.
  public init() {}

  /// The keypad, and a link to the launch report.
  public var body: some View {
    NavigationStack {
      DeferredView(KeypadModel.self) { model in
        KeypadView(model: model)
      } placeholder: {
        ProgressView("Getting the keypad ready")
      }
      .toolbar {
        NavigationLink("Launch report") { LaunchReportView() }
      }
    }
    .onAppear {
      // The first frame is on its way: the deferred services may be built now.
      try? container?.firstFrameDrawn()
    }
  }
}

/// Types a sum and shows its result.
struct KeypadView: View {
  @ObservedObject var model: KeypadModel

  var body: some View {
    Form {
      TextField("2 + 2", text: $model.input)
      Button("=") { model.evaluate() }
      if let result = model.result {
        Text(result, format: .number)
      }
    }
  }
}
