/// CRC-32 as zip uses it (ISO 3309 / ITU-T V.42: reflected polynomial 0xEDB88320, initial and final
/// value all ones), a byte at a time through a 256-entry table computed from the polynomial.
struct CRC32 {
    static let table: [UInt32] = (0..<256).map { (n: UInt32) -> UInt32 in
        var c = n
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ c >> 1 : c >> 1 }
        return c
    }

    var value: UInt32 = 0

    init() {}

    mutating func update(_ bytes: [UInt8]) {
        bytes.withByteView { update($0) }
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}
