/// The tips the app shows now and then: generated from templates, deduplicated and sorted,
/// real string work in proportion to the workload. Nothing on the first screen needs them.
public final class TipsCatalog: Sendable {
  /// The tips, sorted.
  public let tips: [String]

  /// Makes the catalogue.
  ///
  /// - Parameter workload: How much work to do.
  public init(workload: Workload) {
    let subjects = ["the tape", "a result", "the memory", "a unit", "the keypad", "a sum"]
    let actions = ["Swipe", "Tap", "Hold", "Drag", "Double-tap", "Pinch"]
    let effects = ["to copy it", "to reuse it", "to share it", "to convert it", "to clear it"]
    var random = SplitMix(seed: 11)
    var unique: Set<String> = []
    for index in 0..<workload.count(8_000) {
      let action = actions[Int(random.next() % UInt64(actions.count))]
      let subject = subjects[Int(random.next() % UInt64(subjects.count))]
      let effect = effects[Int(random.next() % UInt64(effects.count))]
      unique.insert("\(action) \(subject) \(effect) (\(index % 97))")
    }
    tips = unique.sorted()
  }
}

/// The achievements the user earned: streaks and totals found in a simulated usage log, real
/// arithmetic in proportion to the workload.
public final class Achievements: Sendable {
  /// The longest run of days with a calculation.
  public let longestStreak: Int
  /// How many calculations the log holds.
  public let calculations: Int

  /// Walks the usage log.
  ///
  /// - Parameter workload: How much work to do.
  public init(workload: Workload) {
    var random = SplitMix(seed: 13)
    var streak = 0
    var longest = 0
    var total = 0
    for _ in 0..<workload.count(800_000) {
      let used = random.next() % 10 < 8
      streak = used ? streak + 1 : 0
      longest = max(longest, streak)
      total += used ? Int(random.next() % 5) : 0
    }
    longestStreak = longest
    calculations = total
  }
}

/// A search index of the tape: each past calculation of the journal, with a MinHash sketch of
/// its tokens, to find calculations like the one being typed. Real hashing, in proportion to
/// the journal's size and the workload.
public final class TapeIndex: Sendable {
  /// Each indexed calculation's expression.
  public let expressions: [String]
  /// Each one's sketch: the least hash of its tokens under each of the hash functions.
  public let sketches: [[UInt64]]

  /// Indexes the journal.
  ///
  /// - Parameters:
  ///   - storage: The store holding the `history` record.
  ///   - workload: How much work to do: the number of hash functions.
  /// - Throws: ``DemoError`` if the journal cannot be read.
  public init(storage: Storage, workload: Workload) throws(DemoError) {
    let journal = try storage.read("history")
    let functions = workload.count(36)
    var expressions: [String] = []
    var sketches: [[UInt64]] = []
    for line in journal.split(separator: UInt8(ascii: "\n")) {
      let tokens = line.split(separator: UInt8(ascii: " "))
      guard tokens.count >= 3 else { continue }
      var sketch = [UInt64](repeating: .max, count: functions)
      for token in tokens {
        for function in 0..<functions {
          sketch[function] = min(sketch[function], fnv1a(token, seed: UInt64(function) &+ 1))
        }
      }
      expressions.append(String(decoding: line, as: UTF8.self))
      sketches.append(sketch)
    }
    self.expressions = expressions
    self.sketches = sketches
  }
}

/// Suggestions for the next calculation: the calculations of the tape most like the others,
/// by their sketches' estimated similarity. Needs the tape's index; real comparisons in
/// proportion to the workload.
public final class Suggestions: Sendable {
  /// The suggested expressions, best first.
  public let expressions: [String]

  /// Ranks the tape's calculations.
  ///
  /// - Parameters:
  ///   - index: The tape's index.
  ///   - workload: How much work to do: the number of pairs compared, by the first 24 hash
  ///     functions of their sketches.
  public init(index: TapeIndex, workload: Workload) {
    let count = index.sketches.count
    guard count > 1 else {
      expressions = index.expressions
      return
    }
    // The first 24 hash functions of each sketch: however many the index made.
    let width = min(24, index.sketches[0].count)
    var random = SplitMix(seed: 17)
    var score = [Int](repeating: 0, count: count)
    for _ in 0..<workload.count(270_000) {
      let a = Int(random.next() % UInt64(count))
      let b = Int(random.next() % UInt64(count))
      let (left, right) = (index.sketches[a], index.sketches[b])
      var same = 0
      for function in 0..<width where left[function] == right[function] { same += 1 }
      score[a] += same
      score[b] += same
    }
    let best = score.indices.sorted { (score[$1], $0) < (score[$0], $1) }.prefix(5)
    expressions = best.map { index.expressions[$0] }
  }
}
