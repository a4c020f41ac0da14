import BubbleText
import Testing
@testable import BubbleLayout
import BubbleTestSupport

@Suite struct WidthProfileCacheTests {
    /// Engines that count cells differently never share a cached layout, even in one cache.
    @Test func profilesAreInTheCacheKey() throws {
        let cache = LayoutCache()
        let unicode = LayoutEngine(textOptions: TextOptions(), cache: cache)
        let wcwidth = LayoutEngine(textOptions: TextOptions(widthProfile: .wcwidth), cache: cache)
        let again = LayoutEngine(textOptions: TextOptions(), cache: cache)
        #expect(unicode.styleID != wcwidth.styleID)
        #expect(unicode.styleID == again.styleID)
        let note = TextNote(id: "sun", text: "☀️👍🏽 sunny")
        let pool = CellPool()
        let decoration = RowDecoration(isFirstRow: true)
        let byCluster = try unicode.layout(note, decoration: decoration, width: 60, pool: pool)
        let byCodePoint = try wcwidth.layout(note, decoration: decoration, width: 60, pool: pool)
        #expect(byCluster.bubbleWidth != byCodePoint.bubbleWidth)
        #expect(try again.layout(note, decoration: decoration, width: 60, pool: pool) == byCluster)
    }
}
