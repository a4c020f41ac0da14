import BubbleSamples
import Glibc
import Testing
@testable import BubbleText

@Suite struct WidthProfileTests {
    static let wcwidth = TextOptions(widthProfile: .wcwidth)

    /// A C function of the C library, found at run time (Glibc's module map leaves these out).
    static func libc<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    /// glibc's own `wcwidth` in C.UTF-8, on this thread only; nil when the locale is missing.
    static func glibcWidths() -> [Int32]? {
        guard let wcwidth = libc("wcwidth", as: (@convention(c) (Int32) -> Int32).self),
              let locale = newlocale(Int32(1 << LC_CTYPE), "C.UTF-8", nil) else { return nil }
        let previous = uselocale(locale)
        defer {
            uselocale(previous)
            freelocale(locale)
        }
        return (0..<0x110000).map { cp in (0xD800...0xDFFF).contains(cp) ? -1 : wcwidth(Int32(cp)) }
    }

    static var glibcIs236: Bool {
        guard let version = libc("gnu_get_libc_version", as: (@convention(c) () -> UnsafePointer<CChar>).self) else { return false }
        return String(cString: version()) == "2.36"
    }

    /// The generated table is glibc 2.36's (Unicode 14 data) for every code point glibc gives a
    /// width; the ones it gives none are unknown (0) or controls, which we never send raw.
    @Test(.enabled(if: glibcIs236, "the table models glibc 2.36; this machine has another glibc"))
    func wcwidthTableMatchesGlibcOnEveryCodePoint() throws {
        let glibc = try #require(Self.glibcWidths(), "C.UTF-8 locale missing")
        var mismatches: [String] = []
        for cp in 0..<0x110000 where !(0xD800...0xDFFF).contains(cp) {
            let info = UnicodeTables.info(UInt32(cp))
            // Controls never reach the terminal raw (neutralised, or a tab or line break laid out).
            if info.isNeutralisedControl || cp == 0x09 || [LineBreakClass.bk, .cr, .lf, .nl].contains(info.lineBreak) { continue }
            let ours = WcwidthTable.width(UInt32(cp))
            let theirs = Int(glibc[cp])
            if theirs >= 0 {
                if ours != theirs { mismatches.append("U+\(String(cp, radix: 16)) glibc \(theirs) ours \(ours)") }
            } else if ours != 0 {
                mismatches.append("U+\(String(cp, radix: 16)) glibc none ours \(ours)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches: \(mismatches.prefix(20))")
    }

    /// PreparedText keeps the text options: the profile must not make every prepared text larger.
    @Test func theProfileTakesNoRoomInTextOptions() {
        #expect(MemoryLayout<TextOptions>.size <= 16)
    }

    /// Without ZWJs, a grapheme under `wcwidth` is the sum of its code points' glibc widths
    /// (controls in their visible form), whatever the grapheme rules make of them.
    @Test func wcwidthGraphemesAreTheSumOfTheirCodePoints() {
        var generator = SeededGenerator(seed: 0x11)
        let pool: [ClosedRange<UInt32>] = [0x21...0x7E,  // no spaces: a trailing one hangs
                                           0x300...0x36F, 0x900...0x97F, 0x1100...0x11FF, 0xAC00...0xAC20,
                                          0x1F1E6...0x1F1FF, 0x1F300...0x1F6FF, 0x1F3FB...0x1F3FF, 0xFE00...0xFE0F,
                                          0x20D0...0x20FF, 0x4E00...0x4E20, 0x1FA70...0x1FAFF, 0x0E00...0x0E7F]
        for _ in 0..<3000 {
            var scalars: [Unicode.Scalar] = []
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let range = pool[Int.random(in: 0..<pool.count, using: &generator)]
                if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) { scalars.append(scalar) }
            }
            let expected = scalars.reduce(0) { $0 + WcwidthTable.width($1.value) }
            #expect(CellWidth.ofGrapheme(scalars, options: Self.wcwidth) == expected,
                    "\(scalars.map { String($0.value, radix: 16) })")
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            #expect(CellWidth.of(text, options: Self.wcwidth) == expected)
            #expect(PreparedText(text, options: Self.wcwidth).naturalWidth == expected)
        }
    }

    /// The profiles part where terminals part: VS16, a skin tone, a spacing mark, a ZWJ join.
    @Test func profilesDifferWhereGraphemeClustersAndCodePointsDisagree() {
        let unicode = TextOptions()
        let modifier: [Unicode.Scalar] = ["\u{1F44D}", "\u{1F3FD}"]
        #expect(CellWidth.ofGrapheme(modifier, options: unicode) == 2)
        #expect(CellWidth.ofGrapheme(modifier, options: Self.wcwidth)
                == WcwidthTable.width(0x1F44D) + WcwidthTable.width(0x1F3FD))
        let sun: [Unicode.Scalar] = ["\u{2600}", "\u{FE0F}"]
        #expect(CellWidth.ofGrapheme(sun, options: unicode) == 2)
        #expect(CellWidth.ofGrapheme(sun, options: Self.wcwidth) == WcwidthTable.width(0x2600))
        // The scalar after a ZWJ in its grapheme adds nothing (tmux joins it to the cell before).
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        #expect(CellWidth.of(family, options: Self.wcwidth) == WcwidthTable.width(0x1F468))
        #expect(CellWidth.of("\u{1F600}\u{200D}\u{301}\u{1F600}|", options: Self.wcwidth) == 5)
        // A ZWJ that ends its grapheme is not drawn and joins nothing, ASCII or not after it.
        #expect(CellWidth.of("a\u{200D}b", options: Self.wcwidth) == 2)
        #expect(CellWidth.of("\u{4E00}\u{200D}\u{4E00}", options: Self.wcwidth) == 4)
        #expect(CellWidth.of("\u{1F600}\u{200D} a\u{1F600}|", options: Self.wcwidth) == 7)
    }

    /// The fast paths stay exact under `wcwidth`: preparing with and without them agrees on
    /// every line of every width, for mixed scripts and emoji.
    @Test func wcwidthLayoutsEqualTheScalarByScalarPath() {
        let texts = ["नमस्ते दुनिया क्षत्रिय", "👍🏽 great 👨‍👩‍👧 family ☀️ sunny", "Привет мир 你好世界 🫨 shake",
                     "plain ascii words only", "ก่อน ที่ 1️⃣ #️⃣ 🇫🇷🇩🇪", "👩🏽‍🤝‍👨🏻 कि कि कि कि कि कि कि कि कि ा ा ा ा"]
        for text in texts {
            let fast = PreparedText(text, options: Self.wcwidth)
            let slow = PreparedText(text, options: Self.wcwidth, allowASCIIPath: false, allowRuns: false)
            for width in 1...40 {
                #expect(fast.layout(width: width) == slow.layout(width: width), "\(text) at \(width)")
            }
            #expect(fast.naturalWidth == CellWidth.of(text, options: Self.wcwidth))
        }
    }

    /// A cluster wider than 7 cells (many spacing marks) keeps its full width in the map.
    @Test func wideClustersKeepTheirWidthWhenForceBroken() {
        let cluster = "क" + String(repeating: "\u{093E}", count: 11)
        let text = "ab" + cluster + "cd"
        let prepared = PreparedText(text, options: Self.wcwidth)
        #expect(prepared.naturalWidth == 16)
        let lines = prepared.layout(width: 3).lines
        #expect(lines.map(\.width).reduce(0, +) == 16)
        #expect(lines.contains { $0.width == 12 })
    }
}
