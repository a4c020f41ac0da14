/// A fast 64-bit hash of a message id: its UTF-8 read eight bytes at a time, each word folded in
/// with a multiply, then a strong finaliser. Ids are short and hashed on every cache lookup that
/// does not carry a hash already, so this skips `Hasher`'s per-call setup and a per-byte loop.
/// Equality is always checked on the full id after hashing, so a collision costs time, never a
/// wrong layout.
@inlinable
func identityHash(_ id: String) -> UInt64 {
    var id = id
    return id.withUTF8 { bytes in
        let n = bytes.count
        var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(truncatingIfNeeded: n)
        guard let base = bytes.baseAddress else { return mixHash(h) }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= n {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 32
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                tail |= UInt64(base[i]) << shift
                shift += 8
                i += 1
            }
            h = (h ^ tail) &* 0x9E37_79B9_7F4A_7C15
        }
        return mixHash(h)
    }
}

/// The murmur3 64-bit finaliser: spreads every input bit over the output.
@inlinable
func mixHash(_ value: UInt64) -> UInt64 {
    var h = value
    h ^= h >> 33
    h = h &* 0xff51_afd7_ed55_8ccd
    h ^= h >> 33
    h = h &* 0xc4ce_b9fe_1a85_ec53
    h ^= h >> 33
    return h
}
