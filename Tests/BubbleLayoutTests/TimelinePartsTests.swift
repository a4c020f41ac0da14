import BubbleSamples
import Testing
@testable import BubbleLayout

/// A timeline's parts (each row's header, if any, then its body) against a plain list of parts
/// recomputed after every change: appends, prepends, removals (enough to compact the slots),
/// height and header changes, and whole rebuilds.
@Suite struct TimelinePartsTests {
    /// A row as the naive list keeps it: its header's height (nil without one) and its body's.
    struct Row { var header: Int?; var body: Int }

    @Test(arguments: [7, 8, 9] as [UInt64])
    func partsMatchAPlainList(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var timeline = Timeline<Int>()
        var rows: [Row] = []
        func random(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        func randomRow() -> Row { Row(header: random(0...2) == 0 ? random(0...3) : nil, body: random(0...6)) }
        for step in 0..<3_000 {
            switch random(0...9) {
            case 0...2:
                let row = randomRow()
                timeline.append(step, height: 0)
                timeline.setHeight((row.header ?? 0) + row.body, header: row.header, ofRow: timeline.count - 1)
                rows.append(row)
            case 3...4:
                let row = randomRow()
                timeline.prepend(step, height: 0)
                timeline.setHeight((row.header ?? 0) + row.body, header: row.header, ofRow: 0)
                rows.insert(row, at: 0)
            case 5...6 where !rows.isEmpty:
                let i = random(0...rows.count - 1)
                timeline.remove(row: i)
                rows.remove(at: i)
            case 7...8 where !rows.isEmpty:
                let i = random(0...rows.count - 1)
                rows[i] = randomRow()
                timeline.setHeight((rows[i].header ?? 0) + rows[i].body, header: rows[i].header, ofRow: i)
            default:
                rows = rows.map { _ in randomRow() }
                var i = 0
                timeline.updateAll { _ in
                    defer { i += 1 }
                    return ((rows[i].header ?? 0) + rows[i].body, rows[i].header)
                }
            }
            if step % 97 == 0 || step == 2_999 { check(timeline, rows, step: step) }
        }
    }

    func check(_ timeline: Timeline<Int>, _ rows: [Row], step: Int) {
        // The parts in order: (row, is header, height, top).
        var parts: [(row: Int, isHeader: Bool, height: Int, top: Int)] = []
        var y = 0
        for (r, row) in rows.enumerated() {
            if let header = row.header { parts.append((r, true, header, y)); y += header }
            parts.append((r, false, row.body, y))
            y += row.body
        }
        var wrong = 0
        if timeline.partCount != parts.count || timeline.totalHeight != y { wrong += 1 }
        for (p, part) in parts.enumerated() where p < timeline.partCount {
            let located = timeline.locate(part: p)
            if located.row != part.row || located.isHeader != part.isHeader || timeline.offset(ofPart: p) != part.top
                || timeline.height(ofPart: p) != part.height { wrong += 1 }
            if !part.isHeader && timeline.bodyPart(ofRow: part.row) != p { wrong += 1 }
        }
        // The part at each offset: the last part with height whose top is at or above it.
        for offset in -1...y {
            let expected = parts.lastIndex { $0.height > 0 && $0.top <= offset && offset < $0.top + $0.height }
            if timeline.part(atOffset: offset) != expected { wrong += 1 }
        }
        #expect(wrong == 0, "step \(step): \(wrong) wrong answers over \(parts.count) parts")
    }
}
