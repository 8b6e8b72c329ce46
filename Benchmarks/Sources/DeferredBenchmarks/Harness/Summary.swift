/// The median, fastest and slowest of a row's figures.
struct Summary: Sendable {
  let median: Double
  let min: Double
  let max: Double

  init(_ values: [Double]) {
    precondition(!values.isEmpty, "no figures to summarise")
    let sorted = values.sorted()
    let middle = sorted.count / 2
    median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    min = sorted[0]
    max = sorted[sorted.count - 1]
  }
}
