import BubbleText
import Testing
@testable import BubbleLayout

/// The layout core's fenced views (`LayoutEngine+Unsafe.swift`), and BubbleText's element views as
/// the engine, the cache and conversations use them: they read what they were lent inside the
/// closure that lent them, and a debug build stops at the first use of one kept past that closure
/// instead of reading memory that may be freed (the element views' own exit tests are
/// BubbleText's `FenceTokenTests`).
@Suite struct LayoutEngineUnsafeTests {
    @Test func viewsReadWhatTheyWereLentInsideTheirClosures() {
        let values = [3, 1, 4, 1, 5]
        #expect(values.withElementsView { view in (0..<view.count).map { view[$0] } } == values)
        var shared = values
        shared.withMutableElementsView { elements in
            for i in 0..<elements.count { elements[i] *= 2 }
        }
        #expect(shared == [6, 2, 8, 2, 10])
        var borrowed = "lent"
        #expect(withBorrowed(&borrowed) { $0.value } == "lent")
        var id = "abcdefghij"
        #expect(id.withUTF8Elements { words in (words.count, words[9], words.word32(at: 0)) } == (10, UInt8(ascii: "j"), 0x6463_6261))
        let output = ParallelOutput<Int>(count: 2)
        output.initialize(0, to: 7)
        output.initialize(1, to: 8)
        #expect(output.view[1] == 8)
        #expect(output.finish() == [7, 8])
    }

    @Test func elementsSharedByWorkersAreModifiedInPlace() {
        // As a resize does to its entries: each element modified where it is stored, never
        // copied whole (an array inside stays uniquely referenced, so it grows in place).
        var rows = ContiguousArray([[1], [2], [3]])
        rows.withMutableElementsView { rows in
            for i in 0..<rows.count { rows[i].append(i) }
        }
        #expect(Array(rows) == [[1, 0], [2, 1], [3, 2]])
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func aBorrowedValueKeptPastItsClosureStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            var texts = ["a", "b"]
            let kept = withBorrowed(&texts) { $0 }
            _ = kept.value.count
        }
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func aParallelOutputsViewUsedAfterFinishStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            let output = ParallelOutput<String>(count: 1)
            output.initialize(0, to: "moved out by finish")
            let view = output.view
            _ = output.finish()
            _ = view[0]
        }
    }
}
