/// Names among `candidates` close to `name`, closest first: for "did you mean" in errors.
func closestNames(to name: String, in candidates: [String], limit: Int = 3) -> [String] {
  let target = Array(name.lowercased())
  let scored = candidates.compactMap { candidate -> (Int, String)? in
    let other = Array(candidate.lowercased())
    let distance = editDistance(target, other)
    let related =
      other.count > 2
      && (name.lowercased().contains(candidate.lowercased())
        || candidate.lowercased().contains(name.lowercased()))
    guard related || distance <= max(2, target.count / 3) else { return nil }
    return (related ? min(distance, 1) : distance, candidate)
  }
  return scored.sorted { $0 < $1 }.prefix(limit).map(\.1)
}

private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}
