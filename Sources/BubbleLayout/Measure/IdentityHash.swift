import BubbleText

/// The hash of a message id, the one the whole layout core uses: the layout cache and its content
/// stamps, the prepared-text store's shards, the engine, `Conversation` and `RepeatedIDs`
/// (`IDHash.process.hash(id)`).
///
/// Ids come from logs nobody here wrote, so the hash is keyed: a log crafted so that its ids share
/// a hash (and so a home slot, making every probe of the cache's open addressing walk past all of
/// them) would have to know this process's key. Ids `String` calls equal (canonically equivalent)
/// hash alike, as the cache compares ids with `==`. Equality is always checked on the full id, so
/// a collision costs time, never a wrong layout.
@inline(__always)
package func identityHash(_ id: String) -> UInt64 { IDHash.process.hash(id) }

/// A keyed 64-bit hash of a string's NFC UTF-8, so that ids `String` calls equal hash alike.
///
/// `process`'s key is drawn once from `Hasher`, so it changes from one process to the next (and is
/// fixed under `SWIFT_DETERMINISTIC_HASHING`, as `Hasher` is); it never changes within a process,
/// where cached layouts are found by it. Each 8-byte little-endian word, the last padded with
/// zeros, is folded into the state with a 64×64→128-bit multiply by the key, whose two halves are
/// xored; the length is folded in at the end. An ASCII id (already NFC) is read a word at a time,
/// its last few bytes with at most two loads; any other id's NFC bytes are fed one at a time, into
/// the same words. Not a cryptographic hash: it keeps a log from choosing collisions without the
/// key, which is all a hash table needs.
struct IDHash: Sendable, Equatable {
    /// The key of this process's hash.
    static let process = IDHash()

    private let seed: UInt64
    private let multiplier: UInt64

    /// A hash keyed by `seed` and `multiplier` (made odd, so no multiply loses the low bits).
    init(seed: UInt64, multiplier: UInt64) {
        self.seed = seed
        self.multiplier = multiplier | 1
    }

    /// A hash with a key drawn from `Hasher`'s per-process seed.
    init() {
        func draw(_ salt: UInt64) -> UInt64 {
            var hasher = Hasher()
            hasher.combine(salt)
            return UInt64(bitPattern: Int64(hasher.finalize()))
        }
        self.init(seed: draw(0x6964_7368_6173_6800), multiplier: draw(0x6964_7368_6173_6801))
    }

    /// The hash of `id`: its bytes a word at a time when it is ASCII (so already NFC), else its
    /// NFC bytes one at a time.
    @inline(__always)
    func hash(_ id: String) -> UInt64 {
        var id = id
        if let hash = id.withUTF8Elements({ asciiHash(bytes: $0) }) { return hash }
        return hashNFC(id)
    }

    /// `asciiHash(bytes:)` of `id`'s NFC bytes, fed one at a time.
    func hashNFC(_ id: String) -> UInt64 {
        var state = seed
        var word: UInt64 = 0
        var count = 0
        id._withNFCCodeUnits { byte in
            word |= UInt64(byte) << (UInt64(count & 7) * 8)
            count += 1
            if count & 7 == 0 {
                state = Self.mix(state ^ word, multiplier)
                word = 0
            }
        }
        if count & 7 != 0 { state = Self.mix(state ^ word, multiplier) }
        return Self.mix(state ^ UInt64(count), seed)
    }

    /// The hash of `bytes`, a word at a time, or nil when they are not all ASCII.
    @inline(__always)
    func asciiHash(bytes: ElementsView<UInt8>) -> UInt64? {
        var state = seed
        var high: UInt64 = 0
        let count = bytes.count
        var offset = 0
        while offset + 8 <= count {
            let word = bytes.word(at: offset)
            high |= word
            state = Self.mix(state ^ word, multiplier)
            offset += 8
        }
        if offset < count {
            let word = Self.tail(bytes, from: offset)
            high |= word
            state = Self.mix(state ^ word, multiplier)
        }
        guard high & 0x8080_8080_8080_8080 == 0 else { return nil }
        return Self.mix(state ^ UInt64(count), seed)
    }

    /// `bytes[offset...]`, 1 to 7 bytes, as a little-endian word padded with zeros: the same word
    /// a byte-at-a-time loop builds, read with at most two overlapping loads (the bytes they
    /// share are the same, so or-ing them changes nothing).
    @inline(__always)
    static func tail(_ bytes: ElementsView<UInt8>, from offset: Int) -> UInt64 {
        let n = bytes.count - offset
        if bytes.count >= 8 {
            // The last eight bytes, shifted down past those already read.
            let last = bytes.word(at: bytes.count - 8)
            return last >> (UInt64(8 - n) * 8)
        }
        if n >= 4 {
            let low = UInt64(bytes.word32(at: offset))
            let high = UInt64(bytes.word32(at: offset + n - 4))
            return low | high << (UInt64(n - 4) * 8)
        }
        let first = UInt64(bytes[offset])
        let middle = UInt64(bytes[offset + (n >> 1)]) << (UInt64(n >> 1) * 8)
        let last = UInt64(bytes[offset + n - 1]) << (UInt64(n - 1) * 8)
        return first | middle | last
    }

    /// The two halves of `a × b`, xored: every bit of each input reaches the result.
    @inline(__always)
    static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}

/// The murmur3 64-bit finaliser: spreads every input bit over the output. (The layout cache's
/// table hash, which folds a keyed id hash with the key's other fields, not an id hash.)
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
