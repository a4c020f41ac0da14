import BubbleText
import Testing
@testable import BubbleLayout

@Suite struct PreparedTextStoreTests {
    func text(_ i: Int) -> String { "message \(i): " + String(repeating: "lorem ipsum ", count: 1 + i % 7) }

    @Test func bytesCountEachMessagesPreparedFormTextAndBookkeeping() {
        let store = PreparedTextStore(measurer: CellMeasurer(), shardCount: 1)
        var expected = 0
        for i in 0..<100 {
            let prepared = store.prepared(id: "m\(i)", revision: 0, part: 0, text: text(i))
            let n = text(i).utf8.count
            expected += prepared.memoryFootprint + (n > 15 ? n + 32 : 0)
                + MemoryLayout<PreparedTextStore<CellMeasurer>.Part>.stride
                + PreparedTextStore<CellMeasurer>.messageOverhead
        }
        #expect(store.bytes == expected)
        store.remove(id: "m3")
        #expect(store.count == 99 && store.bytes < expected)
    }

    @Test func theByteCapEvictsMessagesNotUsedRecently() {
        let measurer = CountingMeasurer()
        let store = PreparedTextStore(measurer: measurer, maxBytes: 40_000, shardCount: 1)
        _ = store.prepared(id: "kept", revision: 0, part: 0, text: text(1))
        for i in 0..<2_000 {
            _ = store.prepared(id: "m\(i)", revision: 0, part: 0, text: text(i))
            _ = store.prepared(id: "kept", revision: 0, part: 0, text: text(1))  // used all along
            #expect(store.bytes <= 40_000)
        }
        #expect(store.evictions > 1_000)
        #expect(store.count < 2_000)
        let before = measurer.count
        _ = store.prepared(id: "kept", revision: 0, part: 0, text: text(1))
        #expect(measurer.count == before)  // never evicted: no second preparation
        _ = store.prepared(id: "m0", revision: 0, part: 0, text: text(0))
        #expect(measurer.count == before + 1)  // long gone: prepared again
    }

    @Test func theMessageCapHolds() {
        let store = PreparedTextStore(measurer: CellMeasurer(), capacity: 50, shardCount: 1)
        for i in 0..<500 { _ = store.prepared(id: "m\(i)", revision: 0, part: 0, text: "hi \(i)") }
        #expect(store.count <= 50 && store.evictions >= 450)
    }

    @Test func aNewRevisionReplacesTheOldTextsAndSeveralPartsLiveTogether() {
        let store = PreparedTextStore(measurer: CellMeasurer(), shardCount: 1)
        _ = store.prepared(id: "a", revision: 0, part: 0, text: "caption")
        _ = store.prepared(id: "a", revision: 0, part: 1, text: "second part")
        #expect(store.count == 1 && store.preparations == 2)
        _ = store.prepared(id: "a", revision: 0, part: 1, text: "second part")
        #expect(store.preparations == 2)
        let oneRevision = store.bytes
        _ = store.prepared(id: "a", revision: 1, part: 0, text: "caption")
        #expect(store.preparations == 3 && store.count == 1 && store.bytes < oneRevision)
    }
}
