import Foundation
import Testing
@testable import BubbleFonts

/// `FontSubset`: the subset reads back with our own reader, maps exactly the code points asked
/// for (those the font covers) to the original glyphs with the original advances, keeps the
/// other tables byte for byte, drops exactly the outlines of the glyphs not kept, and survives
/// damaged fonts.
@Suite struct FontSubsetTests {
    static let files = ["NotoSans-Subset.ttf", "DejaVuSans-Subset.ttf", "NotoSansArabic-Subset.ttf", "NotoSansHebrew-Subset.ttf",
                        "NotoSansThai-Subset.ttf", "NotoSansDevanagari-Subset.ttf", "NotoNastaliqUrdu-Subset.ttf",
                        "NotoColorEmoji-Subset.ttf", "NotoSansCJK-Subset.ttc"]
    /// Text from every script the fonts cover.
    static let text = "Hello, wörld! Ünïcödé fi ffl 0123 — שלום עולם مرحبا بالعالم سلام دنیا สวัสดีครับ नमस्ते दुनिया 你好，世界。こんにちは 안녕 😀👍🏽👨‍👩‍👧 ❤️"

    /// The table directory of a single-font file, read here independently of `FontFile`.
    static func tables(_ bytes: [UInt8], directory: Int = 0) -> [String: [UInt8]] {
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
        var tables: [String: [UInt8]] = [:]
        for i in 0..<u16(directory + 4) {
            let record = directory + 12 + 16 * i
            let tag = String(decoding: bytes[record..<(record + 4)], as: UTF8.self)
            tables[tag] = Array(bytes[u32(record + 8)..<(u32(record + 8) + u32(record + 12))])
        }
        return tables
    }

    @Test(arguments: files)
    func usedCodePointsKeepTheirGlyphsAndAdvancesOthersAreGone(file: String) throws {
        let bytes = try FontFixtures.bytes(file)
        let original = try OpenTypeFont(bytes: bytes)
        let used = Set(Self.text.unicodeScalars.map(\.value))
        let subset = try FontSubset(font: bytes, scalars: used)
        let font = try OpenTypeFont(bytes: subset.bytes)
        #expect(font.glyphCount == original.glyphCount, "glyph ids are kept")
        #expect(subset.bytes.count < bytes.count)
        var covered = 0
        for value in used {
            let scalar = Unicode.Scalar(value)!
            let glyph = original.glyph(for: scalar)
            #expect(font.glyph(for: scalar) == glyph, "U+\(String(value, radix: 16))")
            if let glyph {
                covered += 1
                #expect(font.advance(of: glyph) == original.advance(of: glyph))
                #expect(font.bitmapAdvance(of: glyph)?.pixels == original.bitmapAdvance(of: glyph)?.pixels)
            }
        }
        #expect(covered > 0, "the text uses \(file)")
        // Every code point the font covers and the text does not use is gone.
        var unused = 0
        for value in 0x20...0x1_FFFF where !used.contains(UInt32(value)) {
            guard let scalar = Unicode.Scalar(UInt32(value)), original.glyph(for: scalar) != nil else { continue }
            unused += 1
            #expect(font.glyph(for: scalar) == nil, "U+\(String(value, radix: 16)) is not used")
        }
        #expect(unused > 0)
    }

    /// The tables not rewritten are the original's bytes; `glyf` is exactly the kept glyphs'
    /// outlines (each padded to 4 bytes), so the file shrinks by the dropped outlines.
    @Test(arguments: ["NotoSans-Subset.ttf", "DejaVuSans-Subset.ttf", "NotoSansArabic-Subset.ttf", "NotoSansDevanagari-Subset.ttf"])
    func outlinesOfDroppedGlyphsAreTheOnlyOnesRemoved(file: String) throws {
        let bytes = try FontFixtures.bytes(file)
        let subset = try FontSubset(font: bytes, scalars: "Hamburgefonts".unicodeScalars.map(\.value))
        let before = Self.tables(bytes), after = Self.tables(subset.bytes)
        for (tag, table) in before where !["cmap", "post", "glyf", "loca", "head", "DSIG"].contains(tag) {
            #expect(after[tag] == table, "\(tag) is copied")
        }
        #expect(after["post"]?.prefix(4) == [0, 3, 0, 0])
        func outlines(_ tables: [String: [UInt8]]) -> [ArraySlice<UInt8>] {
            let long = tables["head"]![51] == 1
            let loca = tables["loca"]!, glyf = tables["glyf"]!
            let count = loca.count / (long ? 4 : 2) - 1
            func offset(_ g: Int) -> Int {
                long ? Int(loca[4 * g]) << 24 | Int(loca[4 * g + 1]) << 16 | Int(loca[4 * g + 2]) << 8 | Int(loca[4 * g + 3])
                    : 2 * (Int(loca[2 * g]) << 8 | Int(loca[2 * g + 1]))
            }
            return (0..<count).map { glyf[offset($0)..<offset($0 + 1)] }
        }
        let old = outlines(before), new = outlines(after)
        #expect(old.count == new.count)
        var expectedGlyf = 0
        var dropped = 0
        for (g, outline) in new.enumerated() {
            if outline.isEmpty {
                dropped += old[g].count
                continue
            }
            // A kept outline is the original's, padded to 4 bytes.
            #expect(Array(outline.prefix(old[g].count)) == Array(old[g]), "glyph \(g)")
            expectedGlyf += (old[g].count + 3) & ~3
        }
        #expect(after["glyf"]!.count == expectedGlyf)
        #expect(dropped > before["glyf"]!.count / 2, "most outlines are dropped for one word")
        #expect(subset.keptGlyphs == new.filter { !$0.isEmpty }.count + (new[0].isEmpty ? 1 : 0))
        // The file's checksum (head.checkSumAdjustment) adds up.
        #expect(FontSubset.checksum(subset.bytes) == 0xB1B0_AFBA)
    }

    /// A ligature the font makes from kept glyphs (fi) keeps its glyph, through GSUB; a composite
    /// glyph keeps its components.
    @Test func substitutionsAndComponentsAreFollowed() throws {
        let bytes = try FontFixtures.bytes("NotoSans-Subset.ttf")
        let font = try OpenTypeFont(bytes: bytes)
        let f = try #require(font.glyph(for: "f")), i = try #require(font.glyph(for: "i"))
        var glyphs = [f, i]
        var clusters = [0, 1]
        try font.substitutions(script: "latn", language: nil).apply(&glyphs, clusters: &clusters)
        let ligature = try #require(glyphs.count == 1 ? glyphs[0] : nil, "NotoSans makes fi a ligature")
        let subset = try FontSubset(font: bytes, scalars: [0x66, 0x69])
        let only = try FontSubset(font: bytes, scalars: [0x66])
        func kept(_ bytes: [UInt8], _ glyph: UInt16) -> Bool {
            let tables = Self.tables(bytes)
            let loca = tables["loca"]!, long = tables["head"]![51] == 1
            func offset(_ g: Int) -> Int {
                long ? Int(loca[4 * g]) << 24 | Int(loca[4 * g + 1]) << 16 | Int(loca[4 * g + 2]) << 8 | Int(loca[4 * g + 3])
                    : 2 * (Int(loca[2 * g]) << 8 | Int(loca[2 * g + 1]))
            }
            return offset(Int(glyph) + 1) > offset(Int(glyph))
        }
        #expect(kept(subset.bytes, ligature))
        #expect(!kept(only.bytes, ligature), "fi needs both f and i")
        // é is a composite of e and the acute in NotoSans: both come along.
        let eacute = try #require(font.glyph(for: "é"))
        let withAccent = try FontSubset(font: bytes, scalars: [0xE9])
        #expect(kept(withAccent.bytes, eacute))
        #expect(withAccent.keptGlyphs >= 3)
    }

    /// A collection's face comes out as a font of its own (CFF outlines, `OTTO`).
    @Test func collectionFaceComesOutAlone() throws {
        let bytes = try FontFixtures.bytes("NotoSansCJK-Subset.ttc")
        let original = try OpenTypeFont(bytes: bytes, faceIndex: 0)
        let subset = try FontSubset(font: bytes, faceIndex: 0, scalars: "你好世界".unicodeScalars.map(\.value))
        #expect(Array(subset.bytes.prefix(4)) == Array("OTTO".utf8))
        let font = try OpenTypeFont(bytes: subset.bytes)
        #expect(font.faceCount == 1 && font.isCFF)
        for scalar in "你好世界".unicodeScalars { #expect(font.glyph(for: scalar) == original.glyph(for: scalar)) }
        #expect(subset.keptGlyphs < original.glyphCount / 2)
        #expect(subset.bytes.count < Self.tables(bytes, directory: 12 + 4 * original.faceCount).values.reduce(0) { $0 + $1.count })
    }

    @Test func colourEmojiKeepOnlyTheUsedImages() throws {
        let bytes = try FontFixtures.bytes("NotoColorEmoji-Subset.ttf")
        let one = try FontSubset(font: bytes, scalars: [0x1F600])
        let cbdt = try #require(Self.tables(one.bytes)["CBDT"])
        // One glyph image (a PNG) and the header, a small part of the whole.
        #expect(cbdt.count < Self.tables(bytes)["CBDT"]!.count / 50)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
        var images = 0
        for i in 0..<(cbdt.count - 4) where Array(cbdt[i..<(i + 4)]) == png { images += 1 }
        #expect(images == 1)
        let font = try OpenTypeFont(bytes: one.bytes)
        #expect(font.bitmapAdvance(of: try #require(font.glyph(for: "😀")))?.pixels
                == (try OpenTypeFont(bytes: bytes)).bitmapAdvance(of: try #require(font.glyph(for: "😀")))?.pixels)
    }

    /// Damaged fonts: every byte flip or truncation gives a subset or a `FontError`, never a crash
    /// or a hang; a subset that comes out reads back.
    @Test(arguments: ["NotoSans-Subset.ttf", "NotoSansArabic-Subset.ttf", "NotoSansHebrew-Subset.ttf", "NotoSansCJK-Subset.ttc",
                      "NotoColorEmoji-Subset.ttf"])
    func damagedFontsDoNotCrash(file: String) throws {
        let bytes = try FontFixtures.bytes(file)
        var random = HostileFontTests.Seeded(state: 34)
        let scalars = Self.text.unicodeScalars.map(\.value)
        for round in 0..<60 {
            var damaged = bytes
            if round % 10 == 9 {
                damaged.removeLast(random.below(damaged.count))
            } else {
                for _ in 0..<(1 + random.below(64)) {
                    damaged[random.below(damaged.count)] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            _ = try? FontSubset(font: damaged, scalars: scalars)
        }
    }

    /// A composite glyph that names itself, and one that names a glyph past the font, end.
    @Test func compositeCyclesAndStrayComponentsEnd() throws {
        let bytes = try FontFixtures.bytes("NotoSans-Subset.ttf")
        let font = try OpenTypeFont(bytes: bytes)
        let eacute = Int(try #require(font.glyph(for: "é")))
        let tables = Self.tables(bytes)
        let long = tables["head"]![51] == 1
        #expect(!long)
        // Find glyf and loca in the file and point é's first component at itself, then past the font.
        func tableOffset(_ tag: String) -> Int {
            for i in 0..<(Int(bytes[4]) << 8 | Int(bytes[5])) {
                let record = 12 + 16 * i
                if String(decoding: bytes[record..<(record + 4)], as: UTF8.self) == tag {
                    return Int(bytes[record + 8]) << 24 | Int(bytes[record + 9]) << 16 | Int(bytes[record + 10]) << 8 | Int(bytes[record + 11])
                }
            }
            return -1
        }
        let loca = tableOffset("loca"), glyf = tableOffset("glyf")
        let start = glyf + 2 * (Int(bytes[loca + 2 * eacute]) << 8 | Int(bytes[loca + 2 * eacute + 1]))
        #expect(bytes[start] == 0xFF, "é is a composite")
        for component in [eacute, 0xFFFF] {
            var damaged = bytes
            damaged[start + 12] = UInt8(component >> 8)
            damaged[start + 13] = UInt8(component & 0xFF)
            let subset = try FontSubset(font: damaged, scalars: [0xE9])
            #expect(try OpenTypeFont(bytes: subset.bytes).glyph(for: "é") == UInt16(eacute))
        }
    }
}
