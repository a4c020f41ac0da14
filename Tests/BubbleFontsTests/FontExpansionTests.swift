import Foundation
import Testing
@testable import BubbleFonts

/// Tables that point many offsets at one list, or claim more than their bytes hold, unpack within
/// a budget set by the font's size: shared lists are read once, and what is left over is an error
/// naming the table, never gigabytes.
@Suite(.serialized) struct FontExpansionTests {
    private func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    private func be24(_ value: Int) -> [UInt8] { [UInt8(value >> 16 & 0xFF)] + be16(value & 0xFFFF) }
    private func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value & 0xFFFF) }

    /// The peak resident size of this process so far (VmHWM), in bytes; nil without /proc.
    static func peakResident() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1]) else { return nil }
        return kib * 1024
    }

    /// A GPOS table whose one `kern` lookup (type 2) lists `subtables` offsets (each an index into
    /// `bodies`, placed one after another after the lookup).
    private func gpos(subtables: [Int], bodies: [[UInt8]]) -> [UInt8] {
        // Header 10, ScriptList at 10 (DFLT), Script at 18, LangSys at 22, FeatureList at 30,
        // Feature at 38, LookupList at 44, Lookup at 48.
        var bytes = be32(0x0001_0000) + be16(10) + be16(30) + be16(44)
        bytes += be16(1) + Array("DFLT".utf8) + be16(8)        // ScriptList: one script, at +8
        bytes += be16(4) + be16(0)                             // Script: default LangSys at +4
        bytes += be16(0) + be16(0xFFFF) + be16(1) + be16(0)    // LangSys: feature 0
        bytes += be16(1) + Array("kern".utf8) + be16(8)        // FeatureList: kern at +8
        bytes += be16(0) + be16(1) + be16(0)                   // Feature: lookup 0
        bytes += be16(1) + be16(4)                             // LookupList: lookup at +4
        precondition(bytes.count == 48)
        let header = 6 + 2 * subtables.count
        var starts: [Int] = []
        var at = header
        for body in bodies {
            starts.append(at)
            at += body.count
        }
        bytes += be16(2) + be16(0) + be16(subtables.count)
        for index in subtables { bytes += be16(starts[index]) }
        for body in bodies { bytes += body }
        return bytes
    }

    /// A class-pair subtable (format 2) of `classes` × `classes` classes with value formats
    /// `valueFormat` (0: zero-sized records), covering glyphs 0…`glyphs - 1`, every glyph in one
    /// class range.
    private func classPairs(classes: Int, valueFormat: Int, glyphs: Int) -> [UInt8] {
        let recordSize = valueFormat == 0 ? 0 : 2
        let records = classes * classes * recordSize
        let coverage = be16(2) + be16(1) + be16(0) + be16(glyphs - 1) + be16(0)
        let classDef = be16(2) + be16(1) + be16(0) + be16(glyphs - 1) + be16(1)
        let coverageAt = 16 + records, classAt = coverageAt + coverage.count
        var bytes = be16(2) + be16(coverageAt) + be16(valueFormat) + be16(0) + be16(classAt) + be16(classAt)
        bytes += be16(classes) + be16(classes)
        bytes += [UInt8](repeating: 0, count: records)
        return bytes + coverage + classDef
    }

    @Test func aThousandOffsetsToOneClassPairSubtableAreReadOnce() throws {
        // 1,000 offsets to one subtable claiming 1,448 × 1,448 classes of zero-sized records: a
        // font of a few KiB. Read once, and with no values stored.
        let table = gpos(subtables: Array(repeating: 0, count: 1000), bodies: [classPairs(classes: 1448, valueFormat: 0, glyphs: 100)])
        #expect(table.count < 4096)
        let before = Self.peakResident()
        let kerning = try Kerning(gpos: FontBytes(file: table), script: "latn", glyphCount: 100)
        if let before, let after = Self.peakResident() {
            #expect(after - before < 32 << 20, "loading took \((after - before) >> 20) MiB more at its peak")
        }
        #expect(kerning.lookups.count == 1 && kerning.lookups[0].subtables.count == 1000)
        // Zero-sized records change no advance: the subtable applies, with 0.
        #expect(kerning.adjustment(3, 5) == 0)
    }

    @Test func sharedClassPairValuesAreNotCopied() throws {
        // 300 offsets to one 150 × 150 subtable with XAdvance values (45 KB of records, a real
        // size): the values are read once, and every offset shares them.
        var body = classPairs(classes: 150, valueFormat: 0x4, glyphs: 100)
        // Class 1 × class 1 (every glyph is class 1): XAdvance -40.
        let at = 16 + (1 * 150 + 1) * 2
        body[at] = 0xFF
        body[at + 1] = 0xD8
        let table = gpos(subtables: Array(repeating: 0, count: 300), bodies: [body])
        let kerning = try Kerning(gpos: FontBytes(file: table), script: "latn", glyphCount: 100)
        #expect(kerning.adjustment(3, 5) == -40)
        let bases = kerning.lookups[0].subtables.map { subtable -> UnsafeRawPointer? in
            guard case .classes(let pairs) = subtable else { return nil }
            return pairs.values.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        #expect(Set(bases.map { $0.map(Int.init(bitPattern:)) ?? 0 }).count == 1, "one copy of the values")
    }

    @Test func distinctSubtablesThatUnpackPastTheFontsSizeAreRefused() {
        // 200 different small subtables, each with class definitions listing all 65,536 glyphs
        // in one 6-byte range: 26 million entries from a 14 KB font.
        let bodies = (0..<200).map { _ in classPairs(classes: 2, valueFormat: 0, glyphs: 65536) }
        let table = gpos(subtables: Array(0..<200), bodies: bodies)
        #expect(table.count < 16384)
        do {
            _ = try Kerning(gpos: FontBytes(file: table), script: "latn", glyphCount: 65535)
            Issue.record("a font unpacking to 26 million entries was read")
        } catch {
            #expect(error.table == "file")
            #expect(error.reason.contains("more entries than a font of its size can hold"), "\(error)")
        }
    }

    /// A `cmap` with a one-segment format 4 subtable and a format 14 subtable of `selectors`
    /// records all naming one default list of `ranges` ranges.
    private func cmap(selectors: Int, ranges: Int) -> [UInt8] {
        let format4 = be16(4) + be16(24) + be16(0) + be16(2) + be16(2) + be16(0) + be16(0)
            + be16(0xFFFF) + be16(0) + be16(0xFFFF) + be16(1) + be16(0)
        let listAt = 10 + 11 * selectors
        var format14 = be16(14) + be32(listAt + 4 + 4 * ranges) + be32(selectors)
        for s in 0..<selectors { format14 += be24(0xE0100 + s) + be32(listAt) + be32(0) }
        format14 += be32(ranges)
        for r in 0..<ranges { format14 += be24(0x4E00 + 2 * r) + [0] }
        let header = be16(0) + be16(2) + be16(3) + be16(1) + be32(20) + be16(0) + be16(5) + be32(20 + format4.count)
        return header + format4 + format14
    }

    @Test func twentyThousandSelectorsOfOneRangeListShareIt() throws {
        let bytes = cmap(selectors: 20_000, ranges: 40_000)
        let before = Self.peakResident()
        let table = try CmapTable(FontBytes(file: bytes), glyphCount: 10)
        if let before, let after = Self.peakResident() {
            #expect(after - before < 64 << 20, "loading took \((after - before) >> 20) MiB more at its peak")
        }
        #expect(table.knowsSelector(0xE0100) && table.knowsSelector(0xE0100 + 19_999))
        #expect(!table.knowsSelector(0xE0100 + 20_000))
    }
}
