extension BidiTables {
    /// True when the UTF-8 `bytes` may hold a right-to-left character (one `mayBeRightToLeft`
    /// accepts); false means the text reads the same in logical and visual order, so it never
    /// needs the bidi algorithm. Eight ASCII bytes are skipped at a time, and only scalars behind
    /// a lead byte in `rightToLeftLeadBytes` are decoded, so the scan costs a fraction of a
    /// nanosecond per scalar (it runs in `PreparedText`'s preparation of every non-ASCII text).
    @inlinable
    public static func mayContainRightToLeft(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let count = bytes.count
        let raw = UnsafeRawPointer(base)
        let leads = rightToLeftLeadBytes
        var index = 0
        while index < count {
            if index &+ 8 <= count,
               raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index &+= 8
                continue
            }
            let byte = base[index]
            if byte < 0xC0 {
                index &+= 1
            } else if (leads &>> UInt64(byte &- 0xC0)) & 1 != 0 {
                let (scalar, length) = decodeScalar(base, at: index)
                if mayBeRightToLeft(scalar) { return true }
                index &+= length
            } else {
                // Another lead byte: step over its whole scalar, continuation bytes unread.
                index &+= byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            }
        }
        return false
    }

    /// `mayContainRightToLeft` over a string's UTF-8.
    public static func mayContainRightToLeft(_ text: some StringProtocol) -> Bool {
        var text = String(text)
        return text.withUTF8 { mayContainRightToLeft($0) }
    }
}
