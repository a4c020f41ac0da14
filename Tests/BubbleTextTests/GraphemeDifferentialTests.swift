import BubbleSamples
import Testing
@testable import BubbleText

/// Compares our segmentation (Unicode 15.0) with Swift's `Character` (the standard library's
/// Unicode, 16.0 with this toolchain). They must agree everywhere except in these known,
/// explained categories:
///
/// - **Indic conjuncts (GB9c, added in Unicode 15.1).** Swift keeps `consonant virama consonant`
///   (e.g. क्ष) in one grapheme; 15.0 breaks after the virama. Recognised as: we break, Swift
///   does not, before a letter that follows a Linker virama (U+094D, 09CD, 0ACD, 0B4D, 0C4D,
///   0D4D, the InCB=Linker set of 15.1 and 16.0) and nothing but Extend/ZWJ/Linker since.
/// - **Scalars assigned after Unicode 15.0.** Our tables treat them as unassigned (Other, or
///   Extended_Pictographic in the reserved emoji ranges); Swift knows their real property.
///   Recognised as: a scalar in one of the graphemes around the disagreement has
///   `Unicode.Scalar.Properties.age` later than 15.0.
/// - **Grapheme_Cluster_Break changed after 15.0.** U+11A3A ZANABAZAR SQUARE CLUSTER-INITIAL
///   LETTER RA is Prepend in 15.0 and not in Swift's data. Recognised as: a scalar in the
///   stretch that is assigned in 15.0 and that, paired with a plain letter, a combining mark,
///   a Hangul jamo, a spacing mark, a prepend or a line feed, Swift segments differently from
///   us (GraphemeBreakTest covers every property pair, so such a pair can only differ through
///   the scalar's property).
/// - **Swift's GB11 ignores pictographs that are not emoji.** Swift joins
///   `ExtPict Extend* ZWJ × ExtPict` only for Extended_Pictographic scalars that are also
///   Emoji (e.g. not U+2701 UPPER BLADE SCISSORS, so Swift fails GraphemeBreakTest's
///   `2701 200D 2701`). Recognised as: the stretch holds an Extended_Pictographic scalar that
///   Swift does not join after `😀 ZWJ`.
enum GraphemeDisagreement: String, CaseIterable {
    case indicConjunct = "GB9c Indic conjunct (Unicode 15.1)"
    case assignedAfterUnicode15 = "scalar assigned after Unicode 15.0"
    case propertyChangedAfterUnicode15 = "Grapheme_Cluster_Break changed after Unicode 15.0"
    case swiftIgnoresNonEmojiPictograph = "Swift's GB11 ignores non-emoji Extended_Pictographic"
    case unexplained = "UNEXPLAINED"

    static let linkers: Set<UInt32> = [0x094D, 0x09CD, 0x0ACD, 0x0B4D, 0x0C4D, 0x0D4D]

    /// Every disagreement in `text`, classified.
    static func classify(_ text: String) -> [(offset: Int, kind: GraphemeDisagreement)] {
        let ours = Set(graphemeBoundaries(of: text))
        var swift: Set<Int> = [text.utf8.count]
        for index in text.indices { swift.insert(text.utf8.distance(from: text.startIndex, to: index)) }
        if ours == swift { return [] }

        let scalars = Array(text.unicodeScalars)
        var offsets: [Int] = []  // UTF-8 offset of each scalar, then the end
        var offset = 0
        for scalar in scalars {
            offsets.append(offset)
            offset += UTF8.width(scalar)
        }
        offsets.append(offset)
        let common = ours.intersection(swift)

        return ours.symmetricDifference(swift).sorted().map { offset in
            let index = offsets.firstIndex(of: offset)!
            // The stretch of scalars between the boundaries both agree on, around the disagreement.
            let start = offsets.lastIndex { $0 < offset && common.contains($0) } ?? 0
            let end = offsets.firstIndex { $0 > offset && common.contains($0) } ?? scalars.count
            let stretch = scalars[start..<end]
            if stretch.contains(where: { assignedAfterUnicode15($0) }) {
                return (offset, .assignedAfterUnicode15)
            }
            if ours.contains(offset) && isConjunctJoin(scalars, at: index) {
                return (offset, .indicConjunct)
            }
            if stretch.contains(where: { swiftIgnoresAsPictograph($0) }) {
                return (offset, .swiftIgnoresNonEmojiPictograph)
            }
            if stretch.contains(where: { propertyDiffersInSwift($0) }) {
                return (offset, .propertyChangedAfterUnicode15)
            }
            return (offset, .unexplained)
        }
    }

    static func assignedAfterUnicode15(_ scalar: Unicode.Scalar) -> Bool {
        guard let age = scalar.properties.age else { return false }
        return age.major > 15 || (age.major == 15 && age.minor > 0)
    }

    /// Our boundaries and Swift's differ for `scalars` taken alone.
    static func segmentationDiffers(_ scalars: [Unicode.Scalar]) -> Bool {
        let text = String(String.UnicodeScalarView(scalars))
        var swift = [text.utf8.count]
        for index in text.indices { swift.insert(text.utf8.distance(from: text.startIndex, to: index), at: swift.count - 1) }
        return graphemeBoundaries(of: text) != swift
    }

    /// An Extended_Pictographic scalar (in 15.0) that Swift does not join after `😀 ZWJ`.
    static func swiftIgnoresAsPictograph(_ scalar: Unicode.Scalar) -> Bool {
        let info = UnicodeTables.info(scalar.value)
        guard info.isExtendedPictographic && !info.isUnassignedPictographic else { return false }
        return segmentationDiffers(["\u{1F600}", "\u{200D}", scalar])
    }

    /// A scalar assigned in 15.0 that Swift segments differently from us next to a scalar of a
    /// common property.
    static func propertyDiffersInSwift(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.properties.age != nil, !assignedAfterUnicode15(scalar) else { return false }
        let partners: [Unicode.Scalar] = ["a", "\u{300}", "\u{1100}", "\u{1161}", "\u{903}", "\u{600}", "\n"]
        return partners.contains { segmentationDiffers([scalar, $0]) || segmentationDiffers([$0, scalar]) }
    }

    /// `scalars[index]` is a letter after `Linker [Extend ZWJ Linker]*` within a grapheme run.
    static func isConjunctJoin(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index > 0, scalars[index].properties.generalCategory == .otherLetter else { return false }
        var cursor = index - 1
        var sawLinker = false
        while cursor >= 0 {
            let scalar = scalars[cursor]
            if linkers.contains(scalar.value) {
                sawLinker = true
            } else if [.extend, .zwj].contains(UnicodeTables.info(scalar.value).graphemeBreak) {
                // Extend and ZWJ may sit between the linker and the consonant.
            } else {
                break
            }
            cursor -= 1
        }
        return sawLinker
    }
}

@Suite struct GraphemeDifferentialTests {
    /// Runs the comparison over `texts` and returns how many disagreements each category had.
    private func compare(_ texts: [String], source: String) -> [GraphemeDisagreement: Int] {
        var tally: [GraphemeDisagreement: Int] = [:]
        for text in texts {
            for (offset, kind) in GraphemeDisagreement.classify(text) {
                tally[kind, default: 0] += 1
                if kind == .unexplained {
                    let hex = text.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
                    Issue.record("\(source): unexplained disagreement at UTF-8 offset \(offset) in [\(hex)]")
                }
            }
        }
        return tally
    }

    @Test func agreesWithCharacterOnGraphemeBreakTestStrings() throws {
        guard let cases = GraphemeBreakTestCase.load() else {
            Issue.record("GraphemeBreakTest.txt is missing")
            return
        }
        let texts = cases.compactMap(\.text)
        let tally = compare(texts, source: "GraphemeBreakTest.txt")
        #expect(texts.count == 602)
        #expect(tally[.unexplained] == nil)
    }

    @Test func agreesWithCharacterOnEveryEmojiSequence() throws {
        guard let lines = EmojiTestLine.load() else {
            Issue.record("emoji-test.txt is missing")
            return
        }
        // Each sequence alone, and the whole file run together (flags then pair across lines).
        var texts = lines.map(\.text)
        texts.append(lines.map(\.text).joined())
        let tally = compare(texts, source: "emoji-test.txt")
        #expect(tally.isEmpty)  // emoji-test.txt 15.0 holds no scalar newer than 15.0 and no conjunct
    }

    @Test func indicConjunctsAreTheOnlyDisagreementInViramaClusters() {
        // consonant + virama + consonant for every pair of letters in the six GB9c scripts.
        var texts: [String] = []
        for linker in GraphemeDisagreement.linkers.sorted() {
            // The consonants of these Brahmic blocks sit at offsets 0x15–0x39 (KA to HA).
            let consonants = ((linker & ~0x7F) + 0x15)...((linker & ~0x7F) + 0x39)
            let letters = consonants.compactMap(Unicode.Scalar.init).filter { $0.properties.generalCategory == .otherLetter }
            for first in letters.prefix(12) {
                for second in letters.prefix(12) {
                    texts.append(String(String.UnicodeScalarView([first, Unicode.Scalar(linker)!, second])))
                }
            }
        }
        let tally = compare(texts, source: "virama clusters")
        #expect(Set(tally.keys) == [.indicConjunct])
        #expect(tally[.indicConjunct, default: 0] > 500)
    }

    @Test func agreesWithCharacterOnRandomStrings() {
        // Pools of scalars per Grapheme_Cluster_Break value (from our tables), plus pictographs,
        // Indic letters and viramas, and anything at all.
        var pools: [[UInt32]] = Array(repeating: [], count: GraphemeBreakProperty.allCases.count)
        var pictographs: [UInt32] = []
        for value in UInt32(0)..<0x110000 where Unicode.Scalar(value) != nil {
            let info = UnicodeTables.info(value)
            pools[Int(info.graphemeBreak.rawValue)].append(value)
            if info.isExtendedPictographic { pictographs.append(value) }
        }
        pools.append(pictographs)
        pools.append(Array(0x0900...0x0D7F) + [0x200D, 0x200C])
        pools.append(Array(GraphemeDisagreement.linkers))
        var random = SeededGenerator(seed: 0x6_2A9E_4E5)
        var texts: [String] = []
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let scalar: UInt32
                if Int.random(in: 0..<10, using: &random) == 0 {
                    scalar = UInt32.random(in: 0..<0x110000, using: &random)
                } else {
                    let pool = pools[Int.random(in: 0..<pools.count, using: &random)]
                    scalar = pool[Int.random(in: 0..<pool.count, using: &random)]
                }
                if let scalar = Unicode.Scalar(scalar) { text.unicodeScalars.append(scalar) }
            }
            texts.append(text)
        }
        let tally = compare(texts, source: "random strings")
        #expect(tally[.unexplained] == nil)
        #expect(tally[.indicConjunct, default: 0] > 0)  // the pools do reach the known category
    }
}
