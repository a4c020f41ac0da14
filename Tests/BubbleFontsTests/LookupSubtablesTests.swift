import Testing
@testable import BubbleFonts

/// GSUB/GPOS lookups read through `LookupSubtables`: extension lookups are followed subtable by
/// subtable, not only at their first one.
@Suite struct LookupSubtablesTests {
    /// A Lookup table of `type` whose subtables are at `offsets`, followed by `tail`.
    private func lookup(type: UInt16, offsets: [UInt16], tail: [UInt8]) -> [UInt8] {
        var bytes = be16(type) + be16(0) + be16(UInt16(offsets.count))
        for offset in offsets { bytes += be16(offset) }
        return bytes + tail
    }

    private func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    private func be32(_ value: UInt32) -> [UInt8] { be16(UInt16(value >> 16)) + be16(UInt16(value & 0xFFFF)) }

    /// An extension subtable (format 1) naming `realType`, wrapping the bytes `distance` after it.
    private func extensionSubtable(realType: UInt16, distance: UInt32) -> [UInt8] {
        be16(1) + be16(realType) + be32(distance)
    }

    @Test func everySubtableOfAnExtensionLookupIsUnwrapped() throws {
        // Header 6 + 2 offsets = 10 bytes; two 8-byte extension subtables at 10 and 18; the wrapped
        // subtables (two bytes each, 0xAAAA and 0xBBBB) at 26 and 28.
        let tail = extensionSubtable(realType: 2, distance: 16) + extensionSubtable(realType: 2, distance: 10)
            + be16(0xAAAA) + be16(0xBBBB)
        let bytes = FontBytes(file: lookup(type: 9, offsets: [10, 18], tail: tail))
        let read = try LookupSubtables(bytes, extensionType: 9, wanted: { $0 == 2 })
        #expect(read.type == 2)
        #expect(try read.subtables.map { try $0.u16(0) } == [0xAAAA, 0xBBBB])
    }

    @Test func aSubtableNamingAnotherTypeIsSkipped() throws {
        let tail = extensionSubtable(realType: 2, distance: 16) + extensionSubtable(realType: 1, distance: 10)
            + be16(0xAAAA) + be16(0xBBBB)
        let read = try LookupSubtables(FontBytes(file: lookup(type: 9, offsets: [10, 18], tail: tail)),
                                       extensionType: 9, wanted: { $0 == 2 })
        #expect(try read.subtables.map { try $0.u16(0) } == [0xAAAA])
    }

    @Test func aLookupOfAnUnwantedTypeIsNotReadFurther() throws {
        // The second offset points past the end: never followed, so no error.
        let bytes = FontBytes(file: lookup(type: 1, offsets: [10, 999], tail: be16(0xAAAA)))
        let read = try LookupSubtables(bytes, extensionType: 7, wanted: { $0 == 4 })
        #expect(read.type == 1)
        #expect(read.subtables.isEmpty)
    }

    @Test func aPlainLookupKeepsItsSubtablesInOrder() throws {
        let bytes = FontBytes(file: lookup(type: 4, offsets: [10, 12], tail: be16(0xAAAA) + be16(0xBBBB)))
        let read = try LookupSubtables(bytes, extensionType: 7, wanted: { $0 == 1 || $0 == 4 })
        #expect(try read.subtables.map { try $0.u16(0) } == [0xAAAA, 0xBBBB])
    }

    @Test func aDamagedExtensionSubtableIsAFontError() {
        let tail = be16(2) + be16(2) + be32(8)  // format 2: not an extension subtable
        #expect(throws: FontError.self) {
            _ = try LookupSubtables(FontBytes(file: lookup(type: 9, offsets: [8], tail: tail)), extensionType: 9, wanted: { _ in true })
        }
    }
}
