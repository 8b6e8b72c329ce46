import Deferred
import DeferredSwiftUI
import Observation
import SwiftUI

/// The unit conversions, built once the app is idle: with an `@Observable` model from iOS 17,
/// with ``DeferredSwiftUI/DeferredView`` before.
struct ConversionsSection: View {
  var body: some View {
    if #available(iOS 17.0, macOS 14.0, *) {
      ConversionsList()
    } else {
      DeferredView(Conversions.self) { conversions in
        ConversionRows(factors: conversions.factors)
      } placeholder: {
        ProgressView()
      }
    }
  }
}

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

/// One row a factor.
struct ConversionRows: View {
  let factors: [String: Double]

  var body: some View {
    ForEach(factors.sorted { $0.key < $1.key }, id: \.key) { unit, factor in
      LabeledContent(unit) { Text(factor, format: .number) }
    }
  }
}
