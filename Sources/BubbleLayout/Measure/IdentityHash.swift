/// A fast 64-bit hash of a message id (FNV-1a over UTF-8, then a strong finaliser). Ids are short
/// and hashed on every cache lookup, so this skips `Hasher`'s per-call setup. Equality is always
/// checked on the full id after hashing, so a collision costs time, never a wrong layout.
@inlinable
func identityHash(_ id: String) -> UInt64 {
    var id = id
    return id.withUTF8 { bytes in
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
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
