import BubbleLogs

/// Output formatted straight into bytes: numbers written digit by digit and plain strings copied,
/// so a row of output costs no `String` building. One buffer is filled per chunk of rows and
/// handed to the sink in one write.
struct OutputBuffer {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ value: Int) {
        if value < 0 { bytes.append(0x2D) }
        var v = value.magnitude
        var divisor: UInt = 1
        while divisor <= v / 10 { divisor *= 10 }
        repeat {
            bytes.append(UInt8(truncatingIfNeeded: v / divisor) &+ 0x30)
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
            bytes.append(0x22)
            bytes.append(contentsOf: utf8)
            bytes.append(0x22)
            return true
        }
        if !plain { bytes.append(contentsOf: JSONString.quoted(text).utf8) }
    }

    /// `text` as one CSV field (see `OutputEscaping.csvField`).
    mutating func appendCSVField(_ text: String) {
        var text = text
        let plain = text.withUTF8 { utf8 in
            for byte in utf8 where byte < 0x20 || byte == 0x22 || byte == 0x2C || byte >= 0x7F { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !plain { bytes.append(contentsOf: OutputEscaping.csvField(text).utf8) }
    }
}
