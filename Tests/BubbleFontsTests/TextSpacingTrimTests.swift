import Testing
@testable import BubbleFonts

/// CSS `text-spacing-trim: normal` in Noto Sans CJK JP at 16 px, against what Chromium 156 measured
/// (README, "What the misses were"): one fullwidth glyph is 1,025 LayoutUnits, a trimmed pair
/// 1,537, an untrimmed one 2,049. The whole texts are checked in `ChromiumSweepTests`.
@Suite struct TextSpacingTrimTests {
    static func measurer(language: String = "JAN ") throws -> PixelMeasurer {
        PixelMeasurer(chain: try FontChain(fonts: [FontFixtures.font("NotoSansCJK-Subset.ttc")], size: 16,
                                           script: "hani", language: language))
    }

    @Test(arguments: ["。」", "」「", "、」", "」（", "「「", "」」", "（「", "。。", "：「"])
    func adjacentFullwidthPunctuationLosesHalfAnEm(pair: String) throws {
        #expect(try Self.measurer().width(of: pair) == 1537)
    }

    @Test(arguments: ["！」", "？」", "あ。", "。あ", "」あ", "あ「"])
    func punctuationNextToOtherCharactersKeepsItsWidth(pair: String) throws {
        #expect(try Self.measurer().width(of: pair) == 2049)
    }

    @Test func theTextsFirstOpeningMarkIsNotTrimmed() throws {
        let measurer = try Self.measurer()
        #expect(measurer.width(of: "「") == 1025)
        // Four pairs trimmed: 。」, 」「, 、」, 」（; 16 glyphs.
        #expect(measurer.width(of: "「はい。」「そうですね、」（笑）") == FontScale.layoutUnits(16 * 1_048_578 - 4 * 524_289))
    }

    @Test func aClosingMarkAtALineEndIsTrimmedWhenThatMakesTheLineFit() throws {
        let measurer = try Self.measurer()
        let prepared = measurer.prepare("はい」いい")
        // "はい」" is 3 em (3,073 LU) and does not fit in 2.5 em; trimmed it is 2.5 em (2,561 LU).
        let layout = measurer.layout(prepared, width: 2561)
        #expect(layout.lineCount == 2)
        #expect(layout.lines[0].width == 2561)
        // A dot is not trimmed at a line end: "はい。" needs 3 em, so "は" goes alone (no break before "。").
        let dot = measurer.layout(measurer.prepare("はい。いい"), width: 2561)
        #expect(dot.lines.map(\.width) == [1025, 2049, 2049])
    }

    /// Where a trimmed line end fits, as Chromium 156 broke these texts in a 40 px (2,560 LU) and
    /// a 64 px box: the trimmed line is one fullwidth glyph's 2/65,536 px over the box, so it fits
    /// only with Blink's LayoutUnit of slack, which a paragraph's first line does not get for a
    /// trimmed end, nor a line whose kerned opening mark was shaped again at its start.
    @Test(arguments: [
        ("あい」う", 40, ["あ", "い」", "う"]),
        ("いう」", 40, ["い", "う」"]),
        ("ああいう」え", 40, ["ああ", "いう」", "え"]),
        ("あ\nいう」え", 40, ["あ\n", "い", "う」", "え"]),
        ("ああ（笑）", 40, ["ああ", "（笑）"]),
        ("ね、」（笑）", 40, ["ね、」", "（笑", "）"]),
        ("「はい。」「そ", 64, ["「は", "い。」「そ"]),
        ("ああああ「はい。」「そ", 64, ["ああああ", "「はい。」", "「そ"]),
    ])
    func aTrimmedLineEndFitsWithTheSlackOnlyOnAWrappedLine(text: String, width: Int, lines: [String]) throws {
        let measurer = try Self.measurer()
        let layout = measurer.layout(measurer.prepare(text), width: width * 64)
        let utf8 = Array(text.utf8)
        #expect(layout.lines.map { String(decoding: utf8[$0.utf8Range], as: UTF8.self) } == lines)
    }

    @Test func aLineMayStartWithASmallKanaOrTheProlongedSoundMark() throws {
        let measurer = try Self.measurer()
        // Two em a line: "ラー" then "メン", not "ラ" alone before "ーメ".
        let layout = measurer.layout(measurer.prepare("ラーメン"), width: 2 * 1025)
        #expect(layout.lineCount == 2)
    }

    @Test func fontsWithoutHaltAreNotTrimmed() throws {
        let measurer = PixelMeasurer(chain: try FontChain(fonts: [FontFixtures.font("NotoSans-Subset.ttf")], size: 16))
        let one = measurer.width(of: "」"), two = measurer.width(of: "」」")
        #expect(two >= 2 * one - 1)
    }

    @Test func characterTypesComeFromTheUCDAndTheFont() throws {
        #expect(HanKerning.index(of: 0x300C).map { HanKerning.types[$0] } == .open)       // 「
        #expect(HanKerning.index(of: 0x0028).map { HanKerning.types[$0] } == .openNarrow) // (
        #expect(HanKerning.index(of: 0x3002).map { HanKerning.types[$0] } == .dot)        // 。
        #expect(HanKerning.index(of: 0x3042) == nil)                                        // あ
        let face = try FontChain(fonts: [FontFixtures.font("NotoSansCJK-Subset.ttc")], size: 16, script: "hani", language: "JAN ").faces[0]
        // Noto Sans CJK JP sets the ideographic full stop in the left half, the colon in the middle.
        #expect(face.hanKerning.lookup(0x3002).type == .close)
        #expect(face.hanKerning.lookup(0xFF1A).type == .middle)
        #expect(face.hanKerning.lookup(0x300C) == (.open, 500, false))
        #expect(face.hanKerning.lookup(0x300D) == (.close, 500, true))
    }
}
