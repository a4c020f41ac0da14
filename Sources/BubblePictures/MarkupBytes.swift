import BubbleLayout

/// The writers' output: UTF-8 bytes appended in place, markup from static strings, numbers as
/// digits and input text escaped by a byte table, so writing a row builds no `String`.
///
/// `appendEscaped` writes exactly what `MarkupText.append` does (the same entities, the same
/// scalars dropped), over UTF-8 bytes instead of scalars: O(n) in the text's bytes. It and the
/// hand-off of finished bytes to a writer are the module's only unsafe code
/// (`MarkupBytes+Unsafe.swift`).
struct MarkupBytes {
    var bytes: [UInt8] = []

    init() {}

    var isEmpty: Bool { bytes.isEmpty }

    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    @inline(__always)
    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A string of our own (a colour, a class name), appended as it is.
    @inline(__always)
    mutating func append(raw text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ other: MarkupBytes) { bytes.append(contentsOf: other.bytes) }

    /// `value` in decimal.
    mutating func append(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        append(magnitude: value.magnitude)
    }

    private mutating func append(magnitude value: UInt) {
        if value < 10 { return bytes.append(UInt8(truncatingIfNeeded: value) &+ 48) }
        var divisor: UInt = 1
        while value / divisor >= 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: rest / divisor) &+ 48)
            rest %= divisor
            divisor /= 10
        }
    }

    /// `value64` (1/64 px) in px as `PixelRow.pixels` writes it: whole, or exact decimals.
    mutating func appendPixels(_ value64: Int) {
        let magnitude = value64.magnitude
        if value64 < 0 { bytes.append(UInt8(ascii: "-")) }
        append(magnitude: magnitude / 64)
        var fraction = Int(magnitude % 64)
        guard fraction != 0 else { return }
        bytes.append(UInt8(ascii: "."))
        while fraction != 0 {
            fraction *= 10
            bytes.append(UInt8(truncatingIfNeeded: fraction / 64) &+ 48)
            fraction %= 64
        }
    }

    /// What an ASCII byte becomes: 0 itself, 1 nothing, 2 a space, 3… an entity of `entities`.
    static let asciiAction: [UInt8] = (0..<128).map { byte in
        switch byte {
        case 0x09: 2
        case 0x26: 3
        case 0x3C: 4
        case 0x3E: 5
        case 0x22: 6
        case 0x27: 7
        case 0..<0x20, 0x7F: 1
        default: 0
        }
    }

    static let entities: [StaticString] = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
}
