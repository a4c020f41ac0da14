import BubbleSamples
import Testing
@testable import BubblesCLI

/// `RepeatedIDs` finds a repeat exactly when `String` calls two ids equal, whichever way an id's
/// hash is taken (a word at a time for ASCII, a byte at a time through NFC otherwise).
@Suite struct RepeatedIDsTests {
    /// Ids of every length around the word size, ASCII and not, from a fixed seed.
    private static func ids(count: Int) -> [String] {
        var rng = SeededGenerator(seed: 0x1d5)
        let alphabet: [Unicode.Scalar] = ["a", "Z", "0", "-", "é", "\u{301}", "K", "\u{212A}", "ß", "語", "😀", "\u{37E}", ";"]
        return (0..<count).map { i in
            var id = String.UnicodeScalarView()
            for _ in 0..<(i % 19) { id.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            return String(id)
        }
    }

    @Test func aRepeatIsFoundExactlyWhenStringsAreEqual() {
        let ids = Self.ids(count: 3000)
        var table = RepeatedIDs()
        var firstLine: [String: Int] = [:]
        for (line, id) in ids.enumerated() {
            let found = table.note(id: id, file: "a.jsonl", line: line)
            if let first = firstLine[id] {
                #expect(found?.first == RepeatedIDs.Place(file: "a.jsonl", line: first), "\(id.unicodeScalars.map { $0.value })")
            } else {
                #expect(found == nil, "\(id.unicodeScalars.map { $0.value })")
                firstLine[id] = line
            }
        }
        #expect(table.repeats == ids.count - firstLine.count)
    }

    @Test func canonicallyEquivalentIdsRepeatEachOther() {
        var table = RepeatedIDs()
        #expect(table.note(id: "caf\u{E9}", file: "a", line: 1) == nil)
        #expect(table.note(id: "cafe\u{301}", file: "b", line: 2)?.first == RepeatedIDs.Place(file: "a", line: 1))
        // A Kelvin sign is a K: an ASCII id and a non-ASCII one can be the same id.
        #expect(table.note(id: "K-7", file: "a", line: 3) == nil)
        #expect(table.note(id: "\u{212A}-7", file: "a", line: 4)?.first == RepeatedIDs.Place(file: "a", line: 3))
        #expect(table.note(id: "k-7", file: "a", line: 5) == nil)
    }

    /// Past the table's growth many ids share a slot's 8 bits of hash: each is still found only
    /// when its whole hash agrees, and the limit fits the slot's 24 bits for the entry's number.
    @Test func manyIdsAcrossGrowthAndTheLimitsBound() {
        var table = RepeatedIDs()
        for i in 0..<50_000 { #expect(table.note(id: "m\(i)", file: "a", line: i) == nil) }
        for i in stride(from: 0, to: 50_000, by: 997) {
            #expect(table.note(id: "m\(i)", file: "b", line: nil)?.first == RepeatedIDs.Place(file: "a", line: i))
        }
        #expect(table.note(id: "m50000", file: "b", line: nil) == nil)
        #expect(table.repeats == 51)
        #expect(RepeatedIDs(limit: Int.max).limit == (1 << 24) - 1)
    }
}
