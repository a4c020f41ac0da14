import BubbleLayout

/// The writers' output: UTF-8 bytes appended in place, markup from static strings, numbers as
/// digits and input text escaped by a byte table, so writing a row builds no `String`.
///
/// `appendEscaped` writes exactly what `MarkupText.append` does (the same entities, the same
/// scalars dropped), over UTF-8 bytes instead of scalars: O(n) in the text's bytes.
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
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 digits, least significant first
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[count] = UInt8(truncatingIfNeeded: rest % 10) &+ 48
                rest /= 10
                count += 1
            }
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
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
    private static let asciiAction: [UInt8] = (0..<128).map { byte in
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

    private static let entities: [StaticString] = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]

    /// `text` escaped for an XML or HTML text node or a quoted attribute (`MarkupText`).
    mutating func appendEscaped(_ text: some StringProtocol) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { appendEscaped(bytes: $0) }
        if done == nil {
            let copy = Array(text.utf8)
            copy.withUnsafeBufferPointer { appendEscaped(bytes: $0) }
        }
    }

    private mutating func appendEscaped(bytes input: UnsafeBufferPointer<UInt8>) {
        bytes.reserveCapacity(bytes.count + input.count)
        let count = input.count
        var i = 0
        var run = 0  // start of the bytes copied as they are
        while i < count {
            let byte = input[i]
            if byte < 0x80 {
                let action = Self.asciiAction[Int(byte)]
                if action == 0 {
                    i += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[run..<i]))
                switch action {
                case 1: break
                case 2: bytes.append(0x20)
                default: append(Self.entities[Int(action) - 3])
                }
                i += 1
                run = i
                continue
            }
            // Multi-byte scalars: only C1 controls, U+061C, the bidi controls and U+FFFE/FFFF are dropped.
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            var dropped = false
            switch byte {
            case 0xC2: dropped = i + 1 < count && input[i + 1] <= 0x9F
            case 0xD8: dropped = i + 1 < count && input[i + 1] == 0x9C
            case 0xE2 where i + 2 < count:
                let second = input[i + 1], third = input[i + 2]
                dropped = (second == 0x80 && (third == 0x8E || third == 0x8F || (0xAA...0xAE).contains(third)))
                    || (second == 0x81 && (0xA6...0xA9).contains(third))
            case 0xEF where i + 2 < count: dropped = input[i + 1] == 0xBF && (input[i + 2] == 0xBE || input[i + 2] == 0xBF)
            default: break
            }
            if dropped {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[run..<i]))
                run = i + length
            }
            i += length
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[run..<count]))
    }
}
