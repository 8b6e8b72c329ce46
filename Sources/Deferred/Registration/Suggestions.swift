/// Names among `candidates` close to `name`, closest first: for "did you mean" in errors.
///
/// Names are compared ignoring case, in Unicode scalars. A candidate is close if one name
/// holds the other (the candidate longer than two scalars, neither longer than
/// ``maxComparedScalars``), or if their edit distance is at most a third of `name`'s length
/// (at least 2, at most ``maxSuggestionEdits``), worked out on the first
/// ``maxComparedScalars`` scalars past their common prefix.
func closestNames(to name: String, in candidates: [String], limit: Int = 3) -> [String] {
  let target = name.lowercased()
  let targetCount = target.unicodeScalars.count
  let bound = max(2, min(targetCount / 3, maxSuggestionEdits))
  let targetScalars = targetCount <= maxComparedScalars ? Array(target.unicodeScalars) : []
  let targetBytes = Array(target.utf8)
  let scored = candidates.compactMap { candidate -> (Int, String)? in
    let other = candidate.lowercased()
    if other == target { return (0, candidate) }
    let otherCount = other.unicodeScalars.count
    if otherCount > 2 && otherCount != targetCount && targetCount <= maxComparedScalars
      && otherCount <= maxComparedScalars
    {
      let otherScalars = Array(other.unicodeScalars)
      // The standard library's search is linear (a Z-algorithm).
      let related =
        otherCount < targetCount
        ? targetScalars.contains(otherScalars) : otherScalars.contains(targetScalars)
      if related { return (1, candidate) }
    }
    guard abs(targetCount - otherCount) <= bound else { return nil }
    let (a, b) = differingStretches(targetBytes, Array(other.utf8))
    guard let distance = editDistance(a, b, atMost: bound) else { return nil }
    return (distance, candidate)
  }
  return scored.sorted { $0 < $1 }.prefix(limit).map(\.1)
}

/// The most edits a suggestion may be away from the name asked for, however long the name.
let maxSuggestionEdits = 8

/// How many scalars of two names, from their first difference, are compared; names longer
/// than this are not searched for one another.
let maxComparedScalars = 256

/// What is left of `a` and `b` (UTF-8) once their common prefix and suffix are set aside, up
/// to ``maxComparedScalars`` scalars of each.
func differingStretches(_ a: [UInt8], _ b: [UInt8]) -> ([Unicode.Scalar], [Unicode.Scalar]) {
  let limit = min(a.count, b.count)
  var prefix = 0
  while prefix < limit && a[prefix] == b[prefix] { prefix += 1 }
  // Back to the start of a scalar: a byte 0b10xxxxxx continues one.
  while prefix > 0 && prefix < limit && a[prefix] & 0xC0 == 0x80 { prefix -= 1 }
  var suffix = 0
  while suffix < limit - prefix && a[a.count - suffix - 1] == b[b.count - suffix - 1] {
    suffix += 1
  }
  while suffix > 0 && a[a.count - suffix] & 0xC0 == 0x80 { suffix -= 1 }
  func stretch(_ bytes: [UInt8]) -> [Unicode.Scalar] {
    Array(
      String(decoding: bytes[prefix..<(bytes.count - suffix)], as: UTF8.self).unicodeScalars
        .prefix(maxComparedScalars))
  }
  return (stretch(a), stretch(b))
}

/// The edit distance between `a` and `b` if it is at most `bound`, else `nil`, worked out on
/// the diagonal band of width `2 × bound + 1`, stopping once a whole row exceeds `bound`.
/// ``closestNames(to:in:limit:)`` passes names without their common prefix and suffix.
func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost bound: Int) -> Int? {
  guard abs(a.count - b.count) <= bound else { return nil }
  let (rows, columns) = (a.count, b.count)
  if rows == 0 || columns == 0 { return max(rows, columns) }
  let over = bound + 1
  // previous[j] is the distance between a's first i - 1 scalars and b's first j; cells outside
  // the band count as `over`.
  var previous = (0...columns).map { min($0, over) }
  var current = [Int](repeating: over, count: columns + 1)
  for i in 1...rows {
    let low = max(1, i - bound)
    let high = min(columns, i + bound)
    if low > high { return nil }
    current[low - 1] = low == 1 ? min(i, over) : over
    var best = current[low - 1]
    let scalar = a[i - 1]
    for j in low...high {
      let substitution = previous[j - 1] + (scalar == b[j - 1] ? 0 : 1)
      let value = min(previous[j] + 1, current[j - 1] + 1, substitution, over)
      current[j] = value
      best = min(best, value)
    }
    if high < columns { current[high + 1] = over }
    if best > bound { return nil }
    swap(&previous, &current)
  }
  let distance = previous[columns]
  return distance <= bound ? distance : nil
}
