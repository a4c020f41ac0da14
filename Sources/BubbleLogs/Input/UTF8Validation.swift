/// The offset of the first byte that does not start or continue a well-formed UTF-8 sequence
/// (overlongs, surrogates and values past U+10FFFF included), or nil when all of `bytes` is valid.
func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
    bytes.withByteView { firstInvalidUTF8Offset($0) }
}

/// `firstInvalidUTF8Offset` on bytes in place. ASCII is skipped eight bytes at a time, and in a
/// word that holds a non-ASCII byte, straight to that byte; each sequence is then checked by its
/// lead byte's length, with the narrower second-byte ranges of E0, ED, F0 and F4.
func firstInvalidUTF8Offset(_ bytes: ByteView) -> Int? {
    let n = bytes.count
    let base = bytes
    var i = 0
    while i < n {
        if i + 8 <= n {
            // Byte k of the text is bits 8k..8k+7 of the little-endian word: the lowest set high
            // bit is the first non-ASCII byte.
            let high = bytes.word(at: i) & 0x8080_8080_8080_8080
            if high == 0 {
                i += 8
                continue
            }
            i += high.trailingZeroBitCount >> 3
        } else if base[i] < 0x80 {
            i += 1
            continue
        }
        let lead = base[i]
        switch lead {
        case 0xC2...0xDF:
            guard i + 1 < n, base[i + 1] & 0xC0 == 0x80 else { return i }
            i += 2
        case 0xE0...0xEF:
            guard i + 2 < n else { return i }
            let second = base[i + 1]
            let lower: UInt8 = lead == 0xE0 ? 0xA0 : 0x80  // E0 80-9F: overlong
            let upper: UInt8 = lead == 0xED ? 0x9F : 0xBF  // ED A0-BF: surrogates
            guard second >= lower, second <= upper, base[i + 2] & 0xC0 == 0x80 else { return i }
            i += 3
        case 0xF0...0xF4:
            guard i + 3 < n else { return i }
            let second = base[i + 1]
            let lower: UInt8 = lead == 0xF0 ? 0x90 : 0x80  // F0 80-8F: overlong
            let upper: UInt8 = lead == 0xF4 ? 0x8F : 0xBF  // F4 90-BF: past U+10FFFF
            guard second >= lower, second <= upper, base[i + 2] & 0xC0 == 0x80, base[i + 3] & 0xC0 == 0x80 else { return i }
            i += 4
        default:
            return i  // a continuation byte, C0, C1 or F5-FF
        }
    }
    return nil
}
