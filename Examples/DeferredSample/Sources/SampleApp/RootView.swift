import Deferred
import DeferredSwiftUI
import SwiftUI

/// The app's first screen: the keypad once its model is built, a placeholder before; the
/// signed-in account; the conversions once the app is idle.
public struct RootView: View {
  /// Makes the root view.
  public init() {}

  /// The keypad, the account, the conversions, and a link to the launch report.
  public var body: some View {
    NavigationStack {
      List {
        Section("Keypad") {
          DeferredView(KeypadModel.self) { model in
            KeypadView(model: model)
          } placeholder: {
            ProgressView("Getting the keypad ready")
          }
        }
        Section("Account") { AccountRow() }
        Section("Conversions") { ConversionsSection() }
      }
      .toolbar {
        NavigationLink("Launch report") { LaunchReportView() }
      }
    }
  }
}

/// Types a sum and shows its result.
struct KeypadView: View {
  @ObservedObject var model: KeypadModel

  var body: some View {
    TextField("2 + 2", text: $model.input)
    Button("=") { model.evaluate() }
    if let result = model.result {
      Text(result, format: .number)
    }
  }
}

/// The signed-in account, and a button that signs out: the row shows the next account once
/// the reset has dropped the old one.
struct AccountRow: View {
  @DeferredService(Account.self) private var account
  @Environment(\.deferredContainer) private var container

  var body: some View {
    if let account {
      LabeledContent(account.name) {
        Text(account.signedInAt, style: .time)
      }
      Button("Sign out") { container?.reset(.account) }
    } else {
      ProgressView()
    }
  }
}
