// The JSON output buffer and its cursor: BubbleLogs' and the command line's output written into raw
// memory, the one place output bytes are written through pointers. Invariants, asserted in debug
// builds: `used <= capacity`; every write first reserves its room (`reserve`, `write(reserving:)`)
// and a `ByteCursor` never writes past the room reserved for it; the memory is freed once, by
// `deinit` (the buffer is not copyable).

/// Output formatted straight into bytes: numbers written digit by digit, plain strings copied and
/// JSON strings escaped from their UTF-8, so a record or row of output costs no `String` building.
/// One buffer is filled per chunk and handed to the sink in one write. Raw memory rather than an
/// array, since `Array.append` of a few bytes at a time goes through its generic path on every call.
public struct OutputBuffer: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    /// Bytes written so far.
    @usableFromInline var used = 0
    /// Bytes written so far.
    public var count: Int { used }

    public init(capacity: Int = 1 << 16) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: used)) }

    /// The bytes written so far, without a copy, valid only inside `body`.
    package func withBytes<R, E: Error>(_ body: (ByteView) throws(E) -> R) throws(E) -> R {
        try ByteView.withView(of: UnsafeBufferPointer(start: base, count: used), body)
    }

    public mutating func removeAll() { used = 0 }

    /// Drops what was written after the first `count` bytes (a record given up half way).
    public mutating func truncate(to count: Int) { used = min(used, count) }

    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) {
        assert(extra >= 0 && used <= capacity, "OutputBuffer: \(used) of \(capacity) used, \(extra) more asked")
        guard used + extra > capacity else { return }
        grow(used + extra)
    }

    @usableFromInline
    mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: used)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    @inlinable @inline(__always)
    mutating func append(raw: UnsafeRawBufferPointer) {
        reserve(raw.count)
        if let source = raw.baseAddress { (base + used).update(from: source.assumingMemoryBound(to: UInt8.self), count: raw.count) }
        used += raw.count
    }

    /// Appends the bytes of `bytes` as they are.
    @inlinable @inline(__always)
    package mutating func append(bytes: ByteView) {
        append(raw: UnsafeRawBufferPointer(bytes.buffer))
    }

    /// Appends the UTF-8 of `text` as it is.
    @inlinable @inline(__always)
    package mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(raw: UnsafeRawBufferPointer($0)) }
    }

    /// Appends a copy of bytes already written, `range` of them (a record's head repeated for
    /// each of its widths).
    @inlinable @inline(__always)
    public mutating func appendWritten(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= used, "OutputBuffer: range not written yet")
        reserve(range.count)
        (base + used).update(from: base + range.lowerBound, count: range.count)
        used += range.count
    }

    /// Writes a record of at most `maximum` bytes in one go through a cursor at the end of what
    /// is written, which may also copy bytes written before (`ByteCursor.copyWritten`). Writing
    /// more than `maximum` bytes is a bug: caught in debug builds, stopped after `body` in release.
    @inlinable @inline(__always)
    package mutating func write(reserving maximum: Int, _ body: (inout ByteCursor) -> Void) {
        reserve(maximum)
        var cursor = ByteCursor(at: base + used, limit: maximum, written: UnsafePointer(base), writtenCount: used)
        body(&cursor)
        let count = cursor.count
        precondition(count >= 0 && count <= maximum, "OutputBuffer: wrote past what was reserved")
        used += count
    }

    public mutating func append(bytes: [UInt8]) {
        bytes.withUnsafeBytes { append(raw: $0) }
    }

    @inlinable @inline(__always)
    public mutating func append(_ literal: StaticString) {
        append(raw: UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    @inlinable @inline(__always)
    public mutating func append(byte: UInt8) {
        reserve(1)
        base[used] = byte
        used += 1
    }

    @inlinable
    public mutating func append(_ value: Int) {
        reserve(21)
        if value >= 0 && value < 100 {
            // Heights, widths and line counts: one or two digits, written in line.
            if value >= 10 {
                base[used] = UInt8(truncatingIfNeeded: value / 10) &+ 0x30
                used += 1
            }
            base[used] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
            used += 1
            return
        }
        appendLong(value)
    }

    @usableFromInline
    mutating func appendLong(_ value: Int) {
        if value < 0 { append(byte: 0x2D) }
        var v = value.magnitude
        var divisor: UInt = 1
        while divisor <= v / 10 { divisor *= 10 }
        repeat {
            base[used] = UInt8(truncatingIfNeeded: v / divisor) &+ 0x30
            used += 1
            v %= divisor
            divisor /= 10
        } while divisor > 0
    }

    /// `value` in decimal, zero-padded to `width` digits (dates).
    mutating func append(_ value: Int, digits width: Int) {
        reserve(width)
        var v = value
        var i = width - 1
        while i >= 0 {
            base[used + i] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
            v /= 10
            i -= 1
        }
        used += width
    }

    /// `text` as a JSON string literal, escaped as `JSONString.quoted` escapes it.
    public mutating func appendJSONString(_ text: String) {
        var text = text
        text.withUTF8View { appendJSONString(utf8: $0) }
    }

    /// Valid UTF-8 `utf8` as a JSON string literal, quotes included: the one JSON escaper (see
    /// `JSONString`). Every C0 and C1 control, DEL, the bidi controls and the line/paragraph
    /// separators become `\uXXXX` (`\n`, `\t`, `\r`, `\"` and `\\` for those five), never raw.
    /// Runs with nothing to escape are copied whole; only the lead bytes of escaped scalars
    /// (below 0x20, `"`, `\`, DEL, C2, D8, E2) stop the scan.
    package mutating func appendJSONString(utf8: ByteView) {
        reserve(utf8.count + 2)
        let n = utf8.count
        if n <= 24 {
            // A short printable ASCII string (an id, a name, a kind) is checked as it is copied,
            // quotes and all, in one pass; at the first byte that is not, it is written again below.
            let to = base + used
            var i = 0
            while i < n {
                let byte = utf8[i]
                guard byte >= 0x20, byte < 0x7F, byte != 0x22, byte != 0x5C else { break }
                to[i + 1] = byte
                i += 1
            }
            if i == n {
                to[0] = 0x22
                to[n + 1] = 0x22
                used += n + 2
                return
            }
        }
        base[used] = 0x22
        used += 1
        var runStart = 0
        var i = 0
        while i < n {
            if i + 8 <= n {
                // Eight bytes at a time past blocks with no byte that may begin an escaped scalar;
                // in a block with one, straight to the first (the mask's lowest bit is a true match).
                let look = SWAR.lookMask(utf8.word(at: i))
                if look == 0 {
                    i += 8
                    continue
                }
                i += look.trailingZeroBitCount >> 3
                assert(OutputBuffer.mayStartEscape(utf8[i]), "the lowest flagged byte is one that may start an escape")
            } else if !OutputBuffer.mayStartEscape(utf8[i]) {
                i += 1
                continue
            }
            let byte = utf8[i]
            // Which scalar starts here, and does it need an escape?
            var scalar = UInt32(byte)
            var length = 1
            if byte >= 0xC0 {
                if byte == 0xC2, i + 1 < n {
                    scalar = UInt32(utf8[i + 1] & 0x3F) | 0x80
                    length = 2
                } else if byte == 0xD8, i + 1 < n {
                    scalar = 0x600 | UInt32(utf8[i + 1] & 0x3F)
                    length = 2
                } else if byte == 0xE2, i + 2 < n {
                    scalar = 0x2000 | UInt32(utf8[i + 1] & 0x3F) << 6 | UInt32(utf8[i + 2] & 0x3F)
                    length = 3
                }
            }
            guard JSONObjectWriter.mustEscape(scalar) else {
                i += length
                continue
            }
            append(bytes: utf8.bytes(runStart..<i))
            switch scalar {
            case 0x22: append("\\\"")
            case 0x5C: append("\\\\")
            case 0x0A: append("\\n")
            case 0x09: append("\\t")
            case 0x0D: append("\\r")
            default:
                reserve(6)
                base[used] = 0x5C
                base[used + 1] = UInt8(ascii: "u")
                for k in 0..<4 {
                    let nibble = UInt8(truncatingIfNeeded: scalar >> (12 - 4 * UInt32(k))) & 0xF
                    base[used + 2 + k] = nibble < 10 ? 0x30 + nibble : 0x37 + nibble
                }
                used += 6
            }
            i += length
            runStart = i
        }
        append(bytes: utf8.bytes(runStart..<n))
        append(byte: 0x22)
    }

    /// Whether `byte` may begin a scalar the JSON escaper changes: below 0x20, `"`, `\`, DEL,
    /// and the lead bytes C2, D8 and E2. A bit set, a word per quarter of the byte values.
    @inline(__always)
    static func mayStartEscape(_ byte: UInt8) -> Bool {
        let word: UInt64
        switch byte >> 6 {
        case 0: word = 0xFFFF_FFFF | 1 << (0x22 - 0x00)
        case 1: word = 1 << (0x5C - 0x40) | 1 << (0x7F - 0x40)
        case 2: word = 0
        default: word = 1 << (0xC2 - 0xC0) | 1 << (0xD8 - 0xC0) | 1 << (0xE2 - 0xC0)
        }
        return word >> (byte & 63) & 1 != 0
    }
}

/// Tests on eight bytes at once (one `UInt64` load), for the scans of JSON text.
enum SWAR {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    // Each mask has the high bit of every byte that matches set, and maybe of bytes above
    // (in memory order, after) a match, never below it: so any match is found, and the lowest
    // set bit is the first match (little-endian loads).

    /// Bytes of `x` that are zero.
    @inline(__always)
    static func zeros(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }

    /// Some byte of `x` is `byte`.
    @inline(__always)
    static func has(_ x: UInt64, _ byte: UInt8) -> Bool { zeros(x ^ (ones &* UInt64(byte))) != 0 }

    /// Bytes of `x` below `limit` (at most 0x80).
    @inline(__always)
    static func below(_ x: UInt64, _ limit: UInt8) -> UInt64 { (x &- ones &* UInt64(limit)) & ~x & highs }

    /// Bytes of `x` that end a plain JSON string run: a quote, a backslash or a control.
    @inline(__always)
    static func stringEnds(_ x: UInt64) -> UInt64 {
        zeros(x ^ (ones &* 0x22)) | zeros(x ^ (ones &* 0x5C)) | below(x, 0x20)
    }

    /// Some byte of `x` ends a plain JSON string run.
    @inline(__always)
    static func endsString(_ x: UInt64) -> Bool { stringEnds(x) != 0 }

    /// The bytes of `x` that may begin a scalar the JSON escaper changes
    /// (`OutputBuffer.mayStartEscape`), marked as `stringEnds` marks them: the lowest set bit is
    /// the first such byte. A block without one is copied as it is, even when a sequence begins
    /// before it or runs on after it, since only lead bytes decide.
    @inline(__always)
    static func lookMask(_ x: UInt64) -> UInt64 {
        stringEnds(x) | zeros(x ^ (ones &* 0x7F)) | zeros(x ^ (ones &* 0xC2)) | zeros(x ^ (ones &* 0xD8)) | zeros(x ^ (ones &* 0xE2))
    }
}

/// Writes bytes forward in room an `OutputBuffer` reserved (`OutputBuffer.write(reserving:)`):
/// short copies and small numbers without a call per field. Debug builds check each write stays
/// inside the room reserved.
@usableFromInline package struct ByteCursor {
    @usableFromInline let start: UnsafeMutablePointer<UInt8>
    /// Where the next byte goes.
    @usableFromInline var storedPosition: UnsafeMutablePointer<UInt8>
    @usableFromInline let limit: Int
    @usableFromInline let written: UnsafePointer<UInt8>
    @usableFromInline let writtenCount: Int

    @inlinable @inline(__always)
    init(at start: UnsafeMutablePointer<UInt8>, limit: Int, written: UnsafePointer<UInt8>, writtenCount: Int) {
        self.start = start
        storedPosition = start
        self.limit = limit
        self.written = written
        self.writtenCount = writtenCount
    }

    /// Bytes written through this cursor.
    @inlinable package var count: Int { start.distance(to: storedPosition) }

    @inlinable @inline(__always)
    func check(_ more: Int) {
        assert(more >= 0 && count + more <= limit, "ByteCursor: \(more) bytes past the \(limit) reserved")
    }

    /// Copies the bytes of `source` (which must not overlap what is written).
    @inlinable @inline(__always)
    package mutating func copy(_ source: ByteView) {
        guard let base = source.buffer.baseAddress else { return }
        copy(base, count: source.count)
    }

    /// Copies `range` of the bytes the buffer held before this write (a record's head again).
    @inlinable @inline(__always)
    package mutating func copyWritten(_ range: Range<Int>) {
        assert(range.lowerBound >= 0 && range.upperBound <= writtenCount, "ByteCursor: \(range) not written yet")
        copy(written + range.lowerBound, count: range.count)
    }

    /// Copies `count` bytes from `source`: eight bytes at a time, the last eight overlapping, for
    /// the 8–64-byte heads and pieces of a record.
    @inlinable @inline(__always)
    mutating func copy(_ source: UnsafePointer<UInt8>, count: Int) {
        check(count)
        if count >= 8 && count <= 64 {
            let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(storedPosition)
            var i = 0
            while i + 8 < count {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
                i += 8
            }
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), toByteOffset: count - 8,
                          as: UInt64.self)
        } else if count > 0 {
            storedPosition.update(from: source, count: count)
        }
        storedPosition += count
    }

    /// One byte.
    @inlinable @inline(__always)
    package mutating func byte(_ value: UInt8) {
        check(1)
        storedPosition[0] = value
        storedPosition += 1
    }

    /// `value` in decimal (at most 20 bytes): up to three digits in line.
    @inlinable @inline(__always)
    package mutating func decimal(_ value: Int) {
        check(20)
        if value >= 0 && value < 1000 {
            if value >= 100 {
                storedPosition[0] = UInt8(truncatingIfNeeded: value / 100) &+ 0x30
                storedPosition[1] = UInt8(truncatingIfNeeded: value / 10 % 10) &+ 0x30
                storedPosition[2] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
                storedPosition += 3
            } else if value >= 10 {
                storedPosition[0] = UInt8(truncatingIfNeeded: value / 10) &+ 0x30
                storedPosition[1] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
                storedPosition += 2
            } else {
                storedPosition[0] = UInt8(truncatingIfNeeded: value) &+ 0x30
                storedPosition += 1
            }
            return
        }
        longDecimal(value)
    }

    @usableFromInline
    mutating func longDecimal(_ value: Int) {
        if value < 0 {
            storedPosition[0] = 0x2D
            storedPosition += 1
        }
        var v = value.magnitude
        var digits = 1
        var rest = v / 10
        while rest > 0 { digits += 1; rest /= 10 }
        var i = digits - 1
        repeat {
            storedPosition[i] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
            v /= 10
            i -= 1
        } while i >= 0
        storedPosition += digits
    }
}
