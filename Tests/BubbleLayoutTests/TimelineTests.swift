import BubbleSamples
import BubbleText
import Testing
@testable import BubbleLayout

/// The obvious implementation: an array and its prefix sums, recomputed after every change.
struct NaiveTimeline {
    var ids: [Int] = []
    var heights: [Int] = []
    var prefix: [Int] = [0]

    mutating func recompute() {
        prefix = [0]
        prefix.reserveCapacity(heights.count + 1)
        for h in heights { prefix.append(prefix.last! + h) }
    }
    func row(atOffset y: Int) -> Int? {
        guard y >= 0 && y < prefix.last! else { return nil }
        var lo = 0, hi = heights.count - 1  // last row whose top ≤ y
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if prefix[mid] <= y { lo = mid } else { hi = mid - 1 }
        }
        while heights[lo] == 0 { lo += 1 }
        return lo
    }
}

@Suite struct TimelineTests {
    @Test func queriesMatchANaiveReferenceOverAMillionRows() {
        var rng = SeededGenerator(seed: 42)
        var timeline = Timeline<Int>()
        var naive = NaiveTimeline()
        naive.ids.reserveCapacity(1_000_000)
        naive.heights.reserveCapacity(1_000_000)
        var nextID = 0
        for _ in 0..<900_000 {
            let h = 1 + Int(rng.next() % 12)
            timeline.append(nextID, height: h)
            naive.ids.append(nextID)
            naive.heights.append(h)
            nextID += 1
        }
        var front: [Int] = [], frontHeights: [Int] = []
        for _ in 0..<100_000 {
            let h = 1 + Int(rng.next() % 12)
            timeline.prepend(nextID, height: h)
            front.append(nextID)
            frontHeights.append(h)
            nextID += 1
        }
        naive.ids = front.reversed() + naive.ids
        naive.heights = frontHeights.reversed() + naive.heights
        naive.recompute()

        func check(_ rounds: Int) {
            #expect(timeline.count == naive.ids.count)
            #expect(timeline.totalHeight == naive.prefix.last!)
            var bad = 0
            for _ in 0..<rounds {
                let r = Int(rng.next() % UInt64(naive.ids.count))
                if timeline[r] != naive.ids[r] || timeline.offset(ofRow: r) != naive.prefix[r]
                    || timeline.height(ofRow: r) != naive.heights[r] { bad += 1 }
                let y = Int(rng.next() % UInt64(naive.prefix.last! + 2)) - 1
                if timeline.row(atOffset: y) != naive.row(atOffset: y) { bad += 1 }
                let span = Int(rng.next() % 60)
                let visible = timeline.rows(inViewportAt: y, height: span)
                if let first = naive.row(atOffset: max(0, y)), span > 0, y + span > 0 {
                    let last = naive.row(atOffset: min(naive.prefix.last! - 1, y + span - 1))!
                    if visible != first..<(last + 1) { bad += 1 }
                } else if !visible.isEmpty && y >= 0 { bad += 1 }
            }
            #expect(bad == 0)
        }
        #expect(timeline.count == 1_000_000)
        check(20_000)

        // Edits, deletes, appends and prepends, each incremental; the reference recomputes.
        for round in 0..<4 {
            for _ in 0..<2_000 {
                let r = Int(rng.next() % UInt64(naive.ids.count))
                switch rng.next() % 4 {
                case 0:
                    let h = Int(rng.next() % 20)
                    timeline.setHeight(h, ofRow: r)
                    naive.heights[r] = h
                case 1:
                    #expect(timeline.remove(row: r) == naive.ids[r])
                    naive.ids.remove(at: r)
                    naive.heights.remove(at: r)
                case 2:
                    timeline.append(nextID, height: 3)
                    naive.ids.append(nextID)
                    naive.heights.append(3)
                    nextID += 1
                default:
                    timeline.prepend(nextID, height: 2)
                    naive.ids.insert(nextID, at: 0)
                    naive.heights.insert(2, at: 0)
                    nextID += 1
                }
            }
            naive.recompute()
            check(round == 3 ? 20_000 : 2_000)
        }
    }

    @Test func deletingMostRowsCompactsAndKeepsAnswersRight() {
        var timeline = Timeline<String>()
        for i in 0..<1_000 { timeline.append("r\(i)", height: i % 5 + 1) }
        for _ in 0..<900 { timeline.remove(row: 50) }
        #expect(timeline.count == 100)
        #expect(timeline[49] == "r49" && timeline[50] == "r950")
        let expected = (0..<50).reduce(0) { $0 + $1 % 5 + 1 }
        #expect(timeline.offset(ofRow: 50) == expected)
        #expect(timeline.row(atOffset: expected) == 50)
        #expect(timeline.rows(inViewportAt: expected - 1, height: 2) == 49..<51)
        #expect(timeline.row(atOffset: timeline.totalHeight) == nil)
        #expect(timeline.rows(inViewportAt: timeline.totalHeight, height: 10).isEmpty)
    }

    @Test func anEmptyTimelineAnswersNothing() {
        let timeline = Timeline<Int>()
        #expect(timeline.isEmpty && timeline.totalHeight == 0)
        #expect(timeline.row(atOffset: 0) == nil)
        #expect(timeline.rows(inViewportAt: 0, height: 24).isEmpty)
    }
}
