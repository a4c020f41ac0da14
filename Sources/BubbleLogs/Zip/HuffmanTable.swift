/// A canonical Huffman code (RFC 1951 §3.2.2) as a two-level lookup table, indexed by the next bits
/// of the stream, least significant first.
///
/// The root table is indexed by `rootBits` bits. A code no longer than that fills every root slot
/// whose low bits are its (bit-reversed) code. A longer code's first `rootBits` bits lead to a
/// subtable indexed by the bits after them, sized for the longest code sharing that prefix. One
/// probe decodes most symbols, two decode any.
///
/// Each entry is a `UInt32`: bits 0–15 are the symbol (or a subtable's offset), bits 16–19 the
/// number of bits the entry consumes (or the subtable's index width), bit 20 marks a subtable link.
/// Zero is an unassigned slot: the bits there are not a code.
struct HuffmanTable {
    static let maximumCodeLength = 15
    private static let linkFlag: UInt32 = 1 << 20

    private(set) var entries: [UInt32]
    let rootBits: Int

    enum BuildError: Error {
        case overSubscribed
        case incomplete
    }

    /// Builds the table for code lengths by symbol (0 means the symbol is unused).
    ///
    /// An over-subscribed set of lengths is never a code. An incomplete set is refused unless
    /// `allowsSingleCode` and it is the one case RFC 1951 allows: a single code of one bit (a
    /// distance tree used once). A set with no codes at all gives a table where every lookup fails.
    init(lengths: ArraySlice<UInt8>, rootBits: Int, allowsSingleCode: Bool) throws(BuildError) {
        self.rootBits = rootBits
        let maxLength = Self.maximumCodeLength
        var counts = [Int](repeating: 0, count: maxLength + 1)
        var longest = 0
        for length in lengths where length > 0 {
            counts[Int(length)] += 1
            longest = max(longest, Int(length))
        }
        entries = [UInt32](repeating: 0, count: 1 << rootBits)
        guard longest > 0 else { return }

        // Kraft's inequality: `left` codes of the current length are still free.
        var left = 1
        for length in 1...maxLength {
            left = left << 1 - counts[length]
            guard left >= 0 else { throw .overSubscribed }
        }
        if left > 0 && !(allowsSingleCode && longest == 1) { throw .incomplete }

        // The first code of each length, in canonical order.
        var nextCode = [Int](repeating: 0, count: maxLength + 2)
        var code = 0
        for length in 1...maxLength {
            code = (code + counts[length - 1]) << 1
            nextCode[length] = code
        }
        counts[0] = 0

        var codes = [Int](repeating: 0, count: lengths.count)
        var subtableLength = [Int](repeating: 0, count: 1 << rootBits)
        for (symbol, length) in zip(0..., lengths) where length > 0 {
            let length = Int(length)
            codes[symbol] = nextCode[length]
            nextCode[length] += 1
            if length > rootBits {
                let prefix = codes[symbol] >> (length - rootBits)
                subtableLength[prefix] = max(subtableLength[prefix], length)
            }
        }
        for prefix in 0..<(1 << rootBits) where subtableLength[prefix] > 0 {
            let width = subtableLength[prefix] - rootBits
            let offset = entries.count
            entries.append(contentsOf: repeatElement(0, count: 1 << width))
            entries[Self.reversed(prefix, bits: rootBits)] = Self.linkFlag | UInt32(width) << 16 | UInt32(offset)
        }
        for (symbol, length) in zip(0..., lengths) where length > 0 {
            let length = Int(length)
            let code = codes[symbol]
            if length <= rootBits {
                let leaf = UInt32(length) << 16 | UInt32(symbol)
                for slot in stride(from: Self.reversed(code, bits: length), to: 1 << rootBits, by: 1 << length) {
                    entries[slot] = leaf
                }
            } else {
                let rest = length - rootBits
                let link = entries[Self.reversed(code >> rest, bits: rootBits)]
                let width = Int(link >> 16 & 0xF), offset = Int(link & 0xFFFF)
                let leaf = UInt32(rest) << 16 | UInt32(symbol)
                for slot in stride(from: Self.reversed(code & (1 << rest - 1), bits: rest), to: 1 << width, by: 1 << rest) {
                    entries[offset + slot] = leaf
                }
            }
        }
    }

    /// The entry for the low bits of `bits`: (symbol, bits consumed), or nil when they are no code.
    /// The caller checks that it had that many bits.
    @inline(__always)
    func decode(_ bits: UInt64) -> (symbol: Int, length: Int)? {
        let entry = entries[Int(truncatingIfNeeded: bits) & (1 << rootBits - 1)]
        if entry & Self.linkFlag == 0 {
            guard entry != 0 else { return nil }
            return (Int(entry & 0xFFFF), Int(entry >> 16 & 0xF))
        }
        let width = Int(entry >> 16 & 0xF)
        let slot = Int(entry & 0xFFFF) + Int(truncatingIfNeeded: bits >> UInt64(rootBits)) & (1 << width - 1)
        let leaf = entries[slot]
        guard leaf != 0 else { return nil }
        return (Int(leaf & 0xFFFF), rootBits + Int(leaf >> 16 & 0xF))
    }

    private static func reversed(_ code: Int, bits: Int) -> Int {
        var code = code, out = 0
        for _ in 0..<bits {
            out = out << 1 | code & 1
            code >>= 1
        }
        return out
    }
}
