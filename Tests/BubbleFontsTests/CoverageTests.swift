import Testing
@testable import BubbleFonts

/// `Coverage`: the glyphs a subtable covers with their coverage indices, and the arrays indexed by
/// them that substitution and positioning subtables hold.
@Suite struct CoverageTests {
    private func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    /// Format 1 listing `glyphs` in order (a font may list a glyph twice).
    private func coverage(_ glyphs: [Int]) throws -> Coverage {
        try Coverage(FontBytes(file: be16(1) + be16(glyphs.count) + glyphs.flatMap(be16)))
    }

    @Test func anIndexedArrayGivesEachCoveredGlyphItsRecordTheFirstListingWinning() throws {
        // Glyph 7 is listed twice (indices 1 and 3); index 4 is past the array's 4 records.
        let covered = try coverage([5, 7, 9, 7, 11])
        let records = [50, 70, 90, 700]
        var map: [UInt16: Int] = [:]
        var asked: [Int] = []
        try covered.read(into: &map, count: records.count) { (index) throws(FontError) -> Int? in
            asked.append(index)
            return records[index]
        }
        #expect(map == [5: 50, 7: 70, 9: 90])
        #expect(asked == [0, 1, 2])
    }

    @Test func aRecordReadAsNothingLeavesItsGlyphForALaterListing() throws {
        let covered = try coverage([3, 4, 3])
        var map: [UInt16: String] = [:]
        try covered.read(into: &map, count: 3) { (index) throws(FontError) -> String? in index == 0 ? nil : "record \(index)" }
        #expect(map == [3: "record 2", 4: "record 1"])
    }

    @Test func anErrorReadingARecordStopsTheRead() throws {
        let covered = try coverage([1, 2, 3])
        let table = FontBytes(file: be16(0))
        var map: [UInt16: UInt16] = [:]
        #expect(throws: FontError.self) {
            try covered.read(into: &map, count: 3) { (index) throws(FontError) -> UInt16? in try table.u16(2 * index) }
        }
        #expect(map == [1: 0])
    }
}
