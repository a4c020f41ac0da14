import Foundation
import Testing
@testable import BubbleFonts

/// Fonts are untrusted input: truncated or corrupted files give a `FontError`, never a crash or a
/// hang, and a font that still loads answers every lookup safely.
@Suite struct HostileFontTests {
    /// A small deterministic generator (SplitMix64), so every run tries the same damage.
    struct Seeded {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// Loads `bytes` and, when that works, asks every kind of question of the font.
    static func exercise(_ bytes: [UInt8]) {
        guard let font = try? OpenTypeFont(bytes: bytes) else { return }
        for value in stride(from: 0, through: 0x1_FFFF, by: 97) {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            if let glyph = font.glyph(for: scalar) {
                _ = font.advance(of: glyph)
                _ = font.bitmapAdvance(of: glyph)
            }
            _ = font.glyph(for: scalar, selector: "\u{FE0F}")
        }
        if let kerning = try? font.kerning(script: "latn") {
            for left in 0..<min(font.glyphCount, 64) { _ = kerning.adjustment(UInt16(left), UInt16(left / 2)) }
        }
        // GSUB and GPOS read for the shaping scripts too (Thai, Arabic, Urdu, Devanagari), and
        // applied to a run of glyphs the damaged font may not even have.
        for (script, language) in [("thai", nil), ("arab", nil), ("arab", "URD "), ("dev2", nil), ("hebr", nil)] as [(String, String?)] {
            if let substitutions = try? font.substitutions(script: script, language: language) {
                var glyphs = (0..<48).map { UInt16(truncatingIfNeeded: $0 * 7) } + [.max, 0, 1]
                var clusters = Array(glyphs.indices)
                substitutions.apply(&glyphs, clusters: &clusters)
            }
            if let kerning = try? font.kerning(script: script) {
                for left in 0..<min(font.glyphCount, 32) { _ = kerning.adjustment(UInt16(left), UInt16(left + 1)) }
            }
        }
        _ = font.advance(of: .max)
    }

    /// Every committed font, the shaping scripts' included.
    static let allFonts = FontFixtures.fontFiles + ["NotoSansThai-Subset.ttf", "NotoSansArabic-Subset.ttf",
                                                    "NotoNastaliqUrdu-Subset.ttf", "NotoSansDevanagari-Subset.ttf"]

    @Test(arguments: Self.allFonts)
    func everyTruncationIsAnErrorOrAFont(_ name: String) throws {
        let bytes = try FontFixtures.bytes(name)
        var random = Seeded(state: 0xF0_47)
        var lengths = [0, 1, 4, 11, 12, 13, 27, 100, bytes.count - 1]
        for _ in 0..<60 { lengths.append(random.below(bytes.count)) }
        var refused = 0
        for length in lengths {
            let cut = Array(bytes.prefix(length))
            do { _ = try OpenTypeFont(bytes: cut) } catch { refused += 1 }
            Self.exercise(cut)
        }
        // A font cut short loses a table somewhere: nearly every cut is refused, with a reason.
        #expect(refused >= lengths.count / 2)
    }

    @Test(arguments: Self.allFonts)
    func corruptedBytesNeverCrash(_ name: String) throws {
        let original = try FontFixtures.bytes(name)
        var random = Seeded(state: 0xBAD_F047)
        for _ in 0..<40 {
            var bytes = original
            for _ in 0..<(1 + random.below(16)) {
                let at = random.below(bytes.count)
                // Half the damage hits the first 2 KiB, where the directory and table headers are.
                let position = random.below(2) == 0 ? at % min(2048, bytes.count) : at
                bytes[position] = UInt8(truncatingIfNeeded: random.next())
            }
            Self.exercise(bytes)
        }
    }

    /// A read that runs off a table says by how much, and one that starts outside it says that
    /// (it said "reads 0 bytes past the end", the read's size for the overrun).
    @Test func aReadPastATableSaysHowFar() throws {
        let table = try FontBytes(file: [UInt8](repeating: 0, count: 20)).slice(4, 10, table: "GSUB")
        #expect(throws: FontError(table: "GSUB", offset: 8, reason: "a read of 4 bytes runs 2 past the end (the table has 10)")) { try table.u32(8) }
        #expect(throws: FontError(table: "GSUB", offset: 12, reason: "starts outside the table (it has 10 bytes)")) { try table.u16(12) }
        #expect(throws: FontError(table: "GSUB", offset: -1, reason: "starts outside the table (it has 10 bytes)")) { try table.u16(-1) }
    }

    @Test func aHugeOffsetInTheDirectoryNamesTheTable() throws {
        var bytes = try FontFixtures.bytes("NotoSans-Subset.ttf")
        // The first table record starts at 12: tag, checksum, offset, length.
        for i in 0..<4 { bytes[12 + 8 + i] = 0xFF }
        let tag = String(decoding: bytes[12..<16], as: UTF8.self)
        #expect(throws: FontError.self) { try OpenTypeFont(bytes: bytes) }
        do {
            _ = try OpenTypeFont(bytes: bytes)
        } catch {
            #expect(error.table == tag)
            #expect(error.reason.contains("lies past the end of the file"))
        }
    }
}
