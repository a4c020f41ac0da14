import BubbleLogs

/// Output formatted straight into bytes: numbers written digit by digit and plain strings copied,
/// so a row of output costs no `String` building. One buffer is filled per chunk of rows and
/// handed to the sink in one write. Raw memory rather than an array, since `Array.append` of a
/// few bytes at a time goes through its generic path on every call.
struct OutputBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 1 << 16) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written so far.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    mutating func removeAll() { count = 0 }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        var newCapacity = capacity * 2
        while newCapacity < count + extra { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(raw: UnsafeRawBufferPointer) {
        reserve(raw.count)
        if let source = raw.baseAddress { (base + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: raw.count) }
        count += raw.count
    }

    mutating func append(bytes: [UInt8]) {
        bytes.withUnsafeBytes { append(raw: $0) }
    }

    @inline(__always)
    mutating func append(_ literal: StaticString) {
        append(raw: UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    @inline(__always)
    mutating func append(byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    mutating func append(_ value: Int) {
        reserve(21)
        if value >= 0 && value < 100 {
            // Heights, widths and line counts: one or two digits.
            if value >= 10 {
                base[count] = UInt8(truncatingIfNeeded: value / 10) &+ 0x30
                count += 1
            }
            base[count] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
            count += 1
            return
        }
        if value < 0 { append(byte: 0x2D) }
        var v = value.magnitude
        var divisor: UInt = 1
        while divisor <= v / 10 { divisor *= 10 }
        repeat {
            base[count] = UInt8(truncatingIfNeeded: v / divisor) &+ 0x30
            count += 1
            v %= divisor
            divisor /= 10
        } while divisor > 0
    }

    /// `text` as a JSON string literal, escaped as `JSONString.quoted` escapes it.
    mutating func appendJSONString(_ text: String) {
        var text = text
        let plain = text.withUTF8 { utf8 in
            // Printable ASCII other than the quote and backslash needs no escape; the rest goes
            // through the one escaper all JSON output shares.
            for byte in utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte >= 0x7F { return false }
            append(byte: 0x22)
            append(raw: UnsafeRawBufferPointer(utf8))
            append(byte: 0x22)
            return true
        }
        if !plain { append(bytes: Array(JSONString.quoted(text).utf8)) }
    }

    /// `text` as one CSV field (see `OutputEscaping.csvField`).
    mutating func appendCSVField(_ text: String) {
        var text = text
        let plain = text.withUTF8 { utf8 in
            for byte in utf8 where byte < 0x20 || byte == 0x22 || byte == 0x2C || byte >= 0x7F { return false }
            append(raw: UnsafeRawBufferPointer(utf8))
            return true
        }
        if !plain { append(bytes: Array(OutputEscaping.csvField(text).utf8)) }
    }
}
