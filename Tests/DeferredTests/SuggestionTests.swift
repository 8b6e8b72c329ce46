import Testing

@testable import Deferred

/// Suggestions stay right, and cheap, whatever the names' lengths.
@Suite struct SuggestionTests {
  @Test func longNamesGetTheRightSuggestions() {
    let head = String(repeating: "abcdefghij", count: 500)
    let tail = String(repeating: "klmnopqrst", count: 500)
    // 1,000 names of over 10,000 characters, each a number between the same head and tail.
    let candidates = (0..<1_000).map { head + "#\($0)#" + tail }
    // A typo in the head, near the number.
    let asked = String(head.dropLast(5)) + "X" + String(head.suffix(4)) + "#417#" + tail
    // One edit from #417#. Two from #117#, #17# and many more, which come in order of name.
    let suggested = closestNames(to: asked, in: candidates)
    #expect(suggested.map { candidates.firstIndex(of: $0) } == [417, 117, 17])
    // #4170# is one deletion away from #170#, #410#, #417# and #470#, in order of name.
    let misspelt = head + "#4170#" + tail
    #expect(
      closestNames(to: misspelt, in: candidates).map { candidates.firstIndex(of: $0) } == [
        170, 410, 417,
      ])
  }

  @Test func longUnrelatedNamesSuggestNothing() {
    let candidates = (0..<1_000).map { index in
      let cycle = String((0..<26).map { Character(Unicode.Scalar(UInt8(97 + ($0 * index) % 26))) })
      return String(repeating: cycle, count: 385) + "\(index)"
    }
    let asked = String(repeating: "z", count: 10_000)
    #expect(closestNames(to: asked, in: candidates).count == 0)
  }

  @Test func distancesWithinTheBoundAreExact() {
    func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }
    #expect(editDistance(scalars("kitten"), scalars("sitting"), atMost: 3) == 3)
    #expect(editDistance(scalars("kitten"), scalars("sitting"), atMost: 2) == nil)
    #expect(editDistance(scalars("flaw"), scalars("lawn"), atMost: 2) == 2)
    #expect(editDistance(scalars("abc"), scalars("abc"), atMost: 2) == 0)
    #expect(editDistance(scalars(""), scalars("ab"), atMost: 2) == 2)
    #expect(editDistance(scalars("abcdef"), scalars("badcfe"), atMost: 8) == 4)
  }

  /// The banded distance agrees with the whole table's wherever it is within the bound.
  @Test func bandedDistanceAgreesWithTheWholeTable() {
    func full(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
      var previous = Array(0...b.count)
      for i in 1...max(1, a.count) where !a.isEmpty {
        var current = [i] + [Int](repeating: 0, count: b.count)
        for j in 1...max(1, b.count) where !b.isEmpty {
          current[j] = min(
            previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
      }
      return previous[b.count]
    }
    var generator = SplitMix(seed: 7)
    for _ in 0..<2_000 {
      let a = (0..<Int.random(in: 0..<9, using: &generator)).map { _ in
        Unicode.Scalar(UInt8.random(in: 97...99, using: &generator))
      }
      let b = (0..<Int.random(in: 0..<9, using: &generator)).map { _ in
        Unicode.Scalar(UInt8.random(in: 97...99, using: &generator))
      }
      let distance = full(a, b)
      for bound in 0...6 {
        #expect(editDistance(a, b, atMost: bound) == (distance <= bound ? distance : nil))
      }
    }
  }

  @Test func aDifferenceAfterALongCommonStretchIsSeen() {
    let head = String(repeating: "\u{E9}x", count: 3_000)
    let tail = String(repeating: "y\u{1F600}", count: 3_000)
    let names = ["a", "bb", "ccc"].map { head + $0 + tail }
    let suggested = closestNames(to: head + "bc" + tail, in: names)
    // One edit from "bb", two from "a" and from "ccc", in order of name.
    #expect(suggested.map { names.firstIndex(of: $0) } == [1, 0, 2])
  }

  @Test func containmentIsFoundEitherWay() {
    #expect(closestNames(to: "Network", in: ["NetworkClient", "Storage"]) == ["NetworkClient"])
    #expect(closestNames(to: "NetworkClient", in: ["Network", "Storage"]) == ["Network"])
    #expect(closestNames(to: "abab", in: ["aabababc"]) == ["aabababc"])
    #expect(closestNames(to: "ababab", in: ["abac"]).isEmpty)
  }
}
