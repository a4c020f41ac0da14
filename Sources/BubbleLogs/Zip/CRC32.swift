/// CRC-32 as zip uses it (ISO 3309 / ITU-T V.42: reflected polynomial 0xEDB88320, initial and final
/// value all ones), a byte at a time through a 256-entry table computed from the polynomial.
struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { (n: UInt32) -> UInt32 in
        var c = n
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ c >> 1 : c >> 1 }
        return c
    }

    private(set) var value: UInt32 = 0

    init() {}

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { update($0) }
    }

    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        var c = ~value
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ c >> 8 }
        }
        value = ~c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}
