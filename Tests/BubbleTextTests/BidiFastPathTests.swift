import BubbleSamples
import Testing
@testable import BubbleText

/// The short cuts of the bidi code (the whole-paragraph resolution, L2 for levels up to 2, the
/// separator scan of L1) against the general code or the rule as UAX #9 words it, on random
/// texts with fixed seeds. The conformance files check them too; these reach longer, chat-like
/// paragraphs, where a short cut hands over to the general code part of the way through.
@Suite struct BidiFastPathTests {
    /// Scalars of every class the whole-paragraph path meets, and some that send a paragraph
    /// to the general code (BN with a number or a bracket, embeddings, isolates).
    static let pool: [String] = [
        "ש", "ל", "ו", "م", "ر", "ح", "a", "b", "Z", "1", "2", "0", "٤", "٥", "+", "-", "$", "%", "#", ",", ".", ":",
        "/", "\u{5B4}", "\u{64B}", "\u{301}", "\u{200D}", "\u{AD}", " ", " ", " ", "\t", "!", "?", "\"", "👍", "(", ")", "[",
        "]", "«", "»", "<", ">", "\u{200F}", "\u{200E}", "\u{61C}", "\u{202B}", "\u{202C}", "\u{2067}", "\u{2069}",
    ]

    @Test func theWholeParagraphPathAgreesWithTheGeneralOne() {
        var random = SeededGenerator(seed: 0xFA57)
        let fast = BidiResolver()
        var general = BidiResolver()
        general.wholeParagraphPath = false
        var compared = 0
        for _ in 0..<4000 {
            // Mostly letters, as chat text is (right-to-left ones, or Latin ones around which
            // numbers keep to the fast path); now and then a rarer class.
            let count = Int.random(in: 1...60, using: &random)
            let common = Bool.random(using: &random) ? 0..<7 : 6..<9
            let scalars: [UInt32] = (0..<count).map { _ in
                let index = Bool.random(using: &random) ? Int.random(in: common, using: &random)
                    : Int.random(in: 0..<Self.pool.count, using: &random)
                return Self.pool[index].unicodeScalars.first!.value
            }
            let classes = scalars.map { BidiTables.classValue($0) }
            let direction = [BidiDirection.auto, .leftToRight, .rightToLeft].randomElement(using: &random)!
            var fastLevels = [UInt8](repeating: 0, count: count)
            var generalLevels = [UInt8](repeating: 0, count: count)
            let (fastLevel, generalLevel) = classes.withElementsView { c in
                scalars.withElementsView { s in
                    (fastLevels.withMutableElementsView { fast.resolve(classes: c, scalars: s, direction: direction, levels: $0) },
                     generalLevels.withMutableElementsView { general.resolve(classes: c, scalars: s, direction: direction, levels: $0) })
                }
            }
            #expect(fastLevel == generalLevel)
            #expect(fastLevels == generalLevels, "\(scalars.map { String(format: "%04X", $0) }) \(direction)")
            compared += 1
        }
        #expect(compared == 4000)
    }

    /// The class-only table the algorithm reads per scalar against the full properties table
    /// (the one the conformance files check), at every code point and beyond.
    @Test func theClassTableAgreesWithThePropertiesTable() {
        var disagreements: [UInt32] = []
        for scalar in UInt32(0)...0x110001 where BidiTables.classValue(scalar) != BidiTables.properties(scalar).classValue {
            disagreements.append(scalar)
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10).map { String($0, radix: 16) })")
        #expect(BidiTables.classValue(.max) == BidiTables.classValue(0x10FFFF))
    }

    /// L2 as UAX #9 words it, one reversal at a time.
    func referenceOrder(_ levels: [UInt8]) -> [Int32] {
        var order = levels.indices.filter { levels[$0] != BidiResolver.removed }.map(Int32.init)
        let kept = order.map { levels[Int($0)] }
        guard let highest = kept.max(), let lowestOdd = kept.filter({ $0 & 1 == 1 }).min() else { return order }
        var level = highest
        while level >= lowestOdd {
            var j = 0
            while j < order.count {
                guard levels[Int(order[j])] >= level else { j += 1; continue }
                var end = j
                while end < order.count && levels[Int(order[end])] >= level { end += 1 }
                order[j..<end].reverse()
                j = end
            }
            level -= 1
        }
        return order
    }

    @Test func reorderingALineAgreesWithRuleL2AsWritten() {
        var random = SeededGenerator(seed: 0x0112)
        for round in 0..<3000 {
            let count = Int.random(in: 0...40, using: &random)
            // Half the lines use only levels 0–2 (the short cut), the rest go up to 5 with
            // removed positions.
            let top: UInt8 = round % 2 == 0 ? 2 : 5
            let levels: [UInt8] = (0..<count).map { _ in
                round % 2 == 1 && Int.random(in: 0..<8, using: &random) == 0 ? BidiResolver.removed : UInt8.random(in: 0...top, using: &random)
            }
            var order = [Int32](repeating: -1, count: count)
            let written = levels.withElementsView { l in
                order.withMutableElementsView { BidiLine.visualOrder(levels: l, into: $0) }
            }
            #expect(Array(order.prefix(written)) == referenceOrder(levels), "\(levels)")
        }
    }

    /// L1 as UAX #9 words it, from the end of the line back.
    func referenceReset(_ classes: [UInt8], _ levels: [UInt8], paragraphLevel: UInt8) -> [UInt8] {
        var levels = levels
        var trailing = true
        for i in classes.indices.reversed() {
            switch BidiClass(rawValue: classes[i])! {
            case .s, .b:
                levels[i] = paragraphLevel
                trailing = true
            case .ws, .lri, .rli, .fsi, .pdi:
                if trailing { levels[i] = paragraphLevel }
            case .bn, .lre, .rle, .lro, .rlo, .pdf:
                if trailing && levels[i] != BidiResolver.removed { levels[i] = paragraphLevel }
            default:
                trailing = false
            }
        }
        return levels
    }

    @Test func resettingWhitespaceAgreesWithRuleL1AsWritten() {
        var random = SeededGenerator(seed: 0x0111)
        // Mostly letters, so that separators are far apart and the eight-at-a-time scan is used.
        let common: [BidiClass] = [.l, .r, .al, .en, .ws, .on]
        for _ in 0..<3000 {
            let count = Int.random(in: 0...70, using: &random)
            let classes: [UInt8] = (0..<count).map { _ in
                Int.random(in: 0..<12, using: &random) == 0 ? UInt8.random(in: 0..<23, using: &random)
                    : common.randomElement(using: &random)!.rawValue
            }
            let levels: [UInt8] = (0..<count).map { _ in UInt8.random(in: 0...3, using: &random) }
            let paragraphLevel = UInt8.random(in: 0...1, using: &random)
            var reset = levels
            classes.withElementsView { c in
                reset.withMutableElementsView { BidiLine.resetWhitespace(classes: c, levels: $0, paragraphLevel: paragraphLevel) }
            }
            #expect(reset == referenceReset(classes, levels, paragraphLevel: paragraphLevel), "\(classes)")
        }
    }
}
