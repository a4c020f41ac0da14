/// Decodes the scalar whose UTF-8 encoding starts at `index`. The bytes must be valid UTF-8 (a
/// Swift `String`'s always are).
@inlinable @inline(__always)
func decodeScalar(_ bytes: UnsafePointer<UInt8>, at index: Int) -> (scalar: UInt32, length: Int) {
    let lead = UInt32(bytes[index])
    if lead < 0x80 { return (lead, 1) }
    let second = UInt32(bytes[index &+ 1]) & 0x3F
    if lead < 0xE0 { return ((lead & 0x1F) << 6 | second, 2) }
    let third = UInt32(bytes[index &+ 2]) & 0x3F
    if lead < 0xF0 { return ((lead & 0x0F) << 12 | second << 6 | third, 3) }
    let fourth = UInt32(bytes[index &+ 3]) & 0x3F
    return ((lead & 0x07) << 18 | second << 12 | third << 6 | fourth, 4)
}

/// True when every byte is below 0x80. Reads eight bytes at a time.
@inlinable
func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let count = bytes.count
    var index = 0
    let raw = UnsafeRawPointer(base)
    while index &+ 8 <= count {
        if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
        index &+= 8
    }
    while index < count {
        if base[index] >= 0x80 { return false }
        index &+= 1
    }
    return true
}
