// libFuzzer harness: the font subsetter (`--embed-fonts`) on any font file.
// Invariants: a file is cut down or refused with a FontError that names a table and a reason, never
// a crash or a hang; the subset of a font our reader reads reads too, has the same glyph count,
// maps each code point of the sample text the original covers to the same glyph with the same
// advance and bitmap advance, maps no other code point, and stays within twice the original
// plus its rewritten cmap and loca.
@testable import BubbleFonts

let sampleText = "Hello, AV Type fi ffl é — Привет Γειά 東京「こんにちは」 👍🏽 ☀️ 1️⃣ 🇯🇵 שלום مرحبا สวัสดี नमस्ते"
let sampleScalars = Set(sampleText.unicodeScalars.map(\.value))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    let face = size > 0 ? Int(bytes[0] & 1) : 0
    let subset: FontSubset
    do {
        subset = try FontSubset(font: bytes, faceIndex: face, scalars: sampleScalars)
    } catch {
        require(!error.table.isEmpty && !error.reason.isEmpty, "a font error without a place or reason: \(error)")
        return 0
    }
    guard let original = try? OpenTypeFont(bytes: bytes, faceIndex: face) else { return 0 }
    let font: OpenTypeFont
    do {
        font = try OpenTypeFont(bytes: subset.bytes)
    } catch {
        require(false, "the subset of a font that reads does not read: \(error)")
        return 0
    }
    require(font.glyphCount == original.glyphCount, "glyph count \(font.glyphCount), the original's \(original.glyphCount)")
    require(subset.keptGlyphs <= original.glyphCount, "kept \(subset.keptGlyphs) of \(original.glyphCount) glyphs")
    for value in sampleScalars {
        let scalar = Unicode.Scalar(value)!
        let glyph = original.glyph(for: scalar)
        require(font.glyph(for: scalar) == glyph, "U+\(String(value, radix: 16)) maps to another glyph")
        if let glyph {
            require(font.advance(of: glyph) == original.advance(of: glyph), "glyph \(glyph)'s advance changed")
            require(font.bitmapAdvance(of: glyph)?.pixels == original.bitmapAdvance(of: glyph)?.pixels, "glyph \(glyph)'s bitmap advance changed")
        }
    }
    for value in [0x20, 0x41, 0x7A, 0xE0, 0x4E00, 0x1F600, 0x10FFFF] as [UInt32] where !sampleScalars.contains(value) {
        require(font.glyph(for: Unicode.Scalar(value)!) == nil, "U+\(String(value, radix: 16)) is mapped but not used")
    }
    // The subset is at most twice the original file (Private DICTs or images shared by several
    // entries are copied for each, within that budget) plus a rebuilt cmap (a segment per code point),
    // loca in the long form and the table directory's padding.
    require(subset.bytes.count <= 2 * size + 24 * sampleScalars.count + 4 * (original.glyphCount + 1) + 4096,
            "the subset (\(subset.bytes.count) bytes) outgrew the font (\(size))")
    return 0
}
