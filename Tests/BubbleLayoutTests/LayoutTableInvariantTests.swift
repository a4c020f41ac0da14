import Testing
@testable import BubbleLayout

/// `LayoutTable`'s invariants are checked in debug builds: a broken one stops the process at
/// the operation that broke it. (Release builds do not check, so these run only in debug.)
@Suite struct LayoutTableInvariantTests {
    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func anInsertWithAHashOtherThanTheKeysTableHashStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            var table = LayoutTable(maxEntries: 16, maxBytes: 1 << 20)
            let key = LayoutKey(id: "m1", content: ContentStamp(rawValue: 0), width: 80, styleID: 0, decoration: RowDecoration())
            table.insert(RowLayout(kind: .text, alignment: .left, compactLevel: .full, parts: [], footer: .none,
                                   spacingAbove: 0, x: 0, bubbleWidth: 10, wrapWidth: 10, textLines: 1),
                         for: key, hash: LayoutTable.tableHash(of: key) &+ 1)
        }
    }

    @Test(.enabled(if: _isDebugAssertConfiguration(), "the checks are compiled into debug builds only"))
    func aLookupWithAHashOtherThanTheKeysTableHashStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            let table = LayoutTable(maxEntries: 16, maxBytes: 1 << 20)
            let key = LayoutKey(id: "m1", content: ContentStamp(rawValue: 0), width: 80, styleID: 0, decoration: RowDecoration())
            _ = table.contains(key, hash: 0)
        }
    }
}
