// libFuzzer harness: the OpenType reader and the pixel measurer on what it reads.
// Invariants: a file is read or refused with a FontError that names a table and a reason, never a
// crash; a font that reads answers every lookup (glyphs, variation sequences, advances, bitmap
// advances, kerning, substitutions; Arabic-script runs are shaped with its GSUB/GPOS); the pixel measurer lays text out at any width with one line
// at least, lines that follow each other through the text, and no line wider than the width
// unless it holds one grapheme.
import BubbleFonts
import BubbleText

let sampleText = "Hello, AV Type fi ffl — Привет Γειά 東京「こんにちは」 👍🏽 ☀️ 1️⃣ 🇯🇵\nשלום"
    + " السَّلامُ لا مرحبا، آپ کیسے ہیں؟ ك\u{200D} ܐܠܦ"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    let font: OpenTypeFont
    do {
        font = try OpenTypeFont(bytes: bytes, faceIndex: size > 0 ? Int(bytes[0] & 1) : 0)
    } catch {
        require(!error.table.isEmpty && !error.reason.isEmpty, "a font error without a place or reason: \(error)")
        return 0
    }
    var glyphs: [UInt16] = []
    for scalar in sampleText.unicodeScalars {
        if let glyph = font.glyph(for: scalar) {
            glyphs.append(glyph)
            _ = font.advance(of: glyph)
            _ = font.bitmapAdvance(of: glyph)
        }
        _ = font.glyph(for: scalar, selector: "\u{FE0F}")
    }
    for script in ["latn", "cyrl", "hani", "DFLT"] {
        if let kerning = try? font.kerning(script: script) {
            for i in glyphs.indices.dropFirst() { _ = kerning.adjustment(glyphs[i - 1], glyphs[i]) }
        }
        if let substitutions = try? font.substitutions(script: script, language: script == "hani" ? "JAN " : nil) {
            var copy = glyphs
            var clusters = Array(copy.indices)
            substitutions.apply(&copy, clusters: &clusters)
            require(copy.count == clusters.count, "substitution left \(copy.count) glyphs and \(clusters.count) clusters")
        }
    }
    guard let chain = try? FontChain(fonts: [font], size: 13 + Double(size % 7)) else { return 0 }
    let measurer = PixelMeasurer(chain: chain)
    let prepared = measurer.prepare(sampleText)
    for width in [0, 64, 640, 6_400, 64_000] {
        let layout = measurer.layout(prepared, width: width)
        require(layout.lineCount >= 1, "no line at width \(width)")
        var end = 0
        for line in layout.lines {
            require(line.utf8Range.lowerBound >= end, "lines overlap at width \(width)")
            end = line.utf8Range.upperBound
            if line.width > width + 1 {
                let text = sampleText.utf8.dropFirst(line.utf8Range.lowerBound).prefix(line.utf8Range.count)
                require(graphemeBoundaries(of: String(decoding: text, as: UTF8.self)).count <= 2,
                        "a line of several graphemes is \(line.width) wide at width \(width)")
            }
        }
        _ = measurer.height(of: prepared, width: width)
    }
    return 0
}
