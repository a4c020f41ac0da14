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
        let decoration = RowDecoration(isFirstRow: true)
        let byCluster = try unicode.layout(note, decoration: decoration, width: 60)
        let byCodePoint = try wcwidth.layout(note, decoration: decoration, width: 60)
        #expect(byCluster.bubbleWidth != byCodePoint.bubbleWidth)
        #expect(try again.layout(note, decoration: decoration, width: 60) == byCluster)
    }

    /// `ghostty` and `unicode` part on a spacing mark (`का` is 2 or 1): engines of each never
    /// share a layout in one cache, in whichever order they ask.
    @Test func ghosttyLayoutsAreNeverSharedWithTheOtherProfiles() throws {
        let note = TextNote(id: "hindi", text: "\u{915}\u{93E}\u{915}\u{93F} \u{915}\u{94D}\u{937}\u{93F}")
        let decoration = RowDecoration(isFirstRow: true)
        for order in [[WidthProfile.ghostty, .unicode, .wcwidth], [.unicode, .ghostty, .wcwidth], [.wcwidth, .ghostty, .unicode]] {
            let cache = LayoutCache()
            var widths: [WidthProfile: Int] = [:]
            var styles: Set<UInt16> = []
            for profile in order {
                let engine = LayoutEngine(textOptions: TextOptions(widthProfile: profile), cache: cache)
                styles.insert(engine.styleID)
                widths[profile] = try engine.layout(note, decoration: decoration, width: 60).bubbleWidth
                let alone = LayoutEngine(textOptions: TextOptions(widthProfile: profile))
                #expect(try alone.layout(note, decoration: decoration, width: 60).bubbleWidth == widths[profile])
            }
            #expect(styles.count == 3)
            #expect(widths[.ghostty]! == widths[.unicode]! + 2)  // का and कि: 2 each, not 1
        }
    }
}
