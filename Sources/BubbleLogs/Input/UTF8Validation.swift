/// The offset of the first byte that does not start or continue a well-formed UTF-8 sequence
/// (overlongs, surrogates and values past U+10FFFF included), or nil when all of `bytes` is valid.
func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { firstInvalidUTF8Offset($0) }
}

/// `firstInvalidUTF8Offset` on bytes in place. ASCII is skipped eight bytes at a time.
func firstInvalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = 0
    let n = bytes.count
    guard let base = bytes.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    while i < n {
        while i + 8 <= n, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
        guard i < n else { break }
        let b0 = bytes[i]
        if b0 < 0x80 { i += 1; continue }
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return i
        }
        guard i + 1 < n, (lower...upper).contains(bytes[i + 1]) else { return i }
        for k in 2..<length {
            guard i + k < n, (0x80...0xBF).contains(bytes[i + k]) else { return i }
        }
        i += length
    }
    return nil
}
