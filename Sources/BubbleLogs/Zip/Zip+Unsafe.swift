// The unsafe code of reading zip archives, in one place: the inflater's output window (written a
// byte at a time on the hottest loop of reading a zipped chat) and the CRC table walk. Invariants,
// asserted in debug builds: every index into the window lies in `0..<capacity`; a match copies
// from before where it writes (`distance >= 1`, overlapping forwards as DEFLATE runs do); the
// window is deallocated once, by its owner's `deinit`.

/// The inflater's output window: a fixed block of bytes, indexed with checks in debug builds.
struct InflateWindow {
    private let base: UnsafeMutablePointer<UInt8>
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    /// Frees the window; called once, by the owner's `deinit`.
    func deallocate() { base.deallocate() }

    /// The byte at `i` (checked in debug builds).
    subscript(i: Int) -> UInt8 {
        @inline(__always) get {
            assert(i >= 0 && i < capacity, "InflateWindow: index \(i) outside 0..<\(capacity)")
            return base[i]
        }
        @inline(__always) nonmutating set {
            assert(i >= 0 && i < capacity, "InflateWindow: index \(i) outside 0..<\(capacity)")
            base[i] = newValue
        }
    }

    /// A DEFLATE back-reference: `length` bytes written at `at`, each copied from `distance`
    /// bytes before it, byte by byte (a match may overlap the bytes it is writing: a run).
    @inline(__always)
    func copyMatch(at: Int, distance: Int, length: Int) {
        assert(distance >= 1 && at - distance >= 0 && at + length <= capacity,
               "InflateWindow: match of \(length) at \(at) from \(distance) back outside 0..<\(capacity)")
        var from = base + (at - distance)
        var to = base + at
        for _ in 0..<length {
            to.pointee = from.pointee
            from += 1
            to += 1
        }
    }

    /// Copies `input[position..<position + count]` to `at`.
    func copy(_ input: [UInt8], from position: Int, count: Int, to at: Int) {
        precondition(position >= 0 && count >= 0 && position + count <= input.count, "InflateWindow: copy outside the input")
        assert(at >= 0 && at + count <= capacity, "InflateWindow: copy of \(count) at \(at) outside 0..<\(capacity)")
        input.withUnsafeBufferPointer { chunk in
            (base + at).update(from: chunk.baseAddress! + position, count: count)
        }
    }

    /// Moves the `count` bytes at `from` to the start of the window.
    func moveToStart(from: Int, count: Int) {
        assert(from >= 0 && count >= 0 && from + count <= capacity, "InflateWindow: \(from)+\(count) outside 0..<\(capacity)")
        base.update(from: base + from, count: count)
    }

    /// Appends the bytes at `range` to `buffer`.
    func append(_ range: Range<Int>, to buffer: inout [UInt8]) {
        precondition(range.lowerBound >= 0 && range.upperBound <= capacity, "InflateWindow: \(range) outside 0..<\(capacity)")
        buffer.append(contentsOf: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }
}

extension CRC32 {
    /// Adds `bytes` to the checksum, a byte at a time through the table (of 256 entries, so the
    /// index, masked to a byte, is always inside it).
    mutating func update(_ bytes: ByteView) {
        var c = ~value
        Self.table.withUnsafeBufferPointer { table in
            assert(table.count == 256)
            for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ c >> 8 }
        }
        value = ~c
    }
}
