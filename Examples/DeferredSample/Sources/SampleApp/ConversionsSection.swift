import Deferred
import DeferredSwiftUI
import Observation
import SwiftUI

/// The unit conversions, built once the app is idle: with an `@Observable` model from iOS 17,
/// with ``DeferredSwiftUI/DeferredView`` before.
///
/// The `@Observable` form is compiled for iOS, the sample's platform. On macOS the sample shows
/// the iOS 16 form: the Swift that compiles the sample against the macOS 15.5 SDK on Linux
/// expands `@Observable` with a member that SDK's declaration of the macro does not name.
struct ConversionsSection: View {
  var body: some View {
    #if os(iOS)
      if #available(iOS 17.0, macOS 14.0, *) {
        ConversionsList()
      } else {
        beforeIOS17
      }
    #else
      beforeIOS17
    #endif
  }

  private var beforeIOS17: some View {
    DeferredView(Conversions.self) { conversions in
      ConversionRows(factors: conversions.factors)
    } placeholder: {
      ProgressView()
    }
  }
}

#if os(iOS)
  /// The screen's model: the conversions, loaded without building them, and what the user
  /// looks for.
  @available(iOS 17.0, macOS 14.0, *)
  @MainActor
  @Observable
  final class ConversionsModel {
    let conversions: ObservableServiceLoader<Conversions>
    var search = ""

    init(container: Container) {
      conversions = ObservableServiceLoader(Conversions.self, in: container)
    }

    /// The factors whose unit contains what the user looks for.
    var factors: [String: Double] {
      let all = conversions.service?.factors ?? [:]
      return search.isEmpty ? all : all.filter { $0.key.localizedCaseInsensitiveContains(search) }
    }
  }

  /// The conversions, from an `@Observable` model held in `@State`.
  @available(iOS 17.0, macOS 14.0, *)
  struct ConversionsList: View {
    @State private var model = ConversionsModel(container: AppServices.container)

    var body: some View {
      Group {
        if model.conversions.service == nil {
          ProgressView()
        } else {
          TextField("Unit", text: $model.search)
          ConversionRows(factors: model.factors)
        }
      }
      // Started here, not in the model's init: SwiftUI may make a model that it then discards.
      .task { model.conversions.start() }
    }
  }

#endif

/// One row a factor.
struct ConversionRows: View {
  let factors: [String: Double]

  var body: some View {
    ForEach(factors.sorted { $0.key < $1.key }, id: \.key) { unit, factor in
      LabeledContent(unit) { Text(factor, format: .number) }
    }
  }
}
