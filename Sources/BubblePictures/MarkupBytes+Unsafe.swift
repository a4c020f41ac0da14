/// The module's unsafe code, all of it: escaping text over its contiguous UTF-8 bytes.
///
/// Invariants (asserted in debug builds): every run the escaping loop copies lies inside the input
/// (`run <= i <= count`; a scalar is dropped only after its continuation bytes were found inside
/// it), and the input buffer is used only inside the closure it is handed to.
extension MarkupBytes {
    /// `text` escaped for an XML or HTML text node or a quoted attribute (`MarkupText`).
    mutating func appendEscaped(_ text: some StringProtocol) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { appendEscaped(bytes: $0) }
        if done == nil {
            let copy = Array(text.utf8)
            copy.withUnsafeBufferPointer { appendEscaped(bytes: $0) }
        }
    }

    private mutating func appendEscaped(bytes input: UnsafeBufferPointer<UInt8>) {
        bytes.reserveCapacity(bytes.count + input.count)
        let count = input.count
        var i = 0
        var run = 0  // start of the bytes copied as they are
        while i < count {
            let byte = input[i]
            if byte < 0x80 {
                let action = Self.asciiAction[Int(byte)]
                if action == 0 {
                    i += 1
                    continue
                }
                assert(run <= i && i < count)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[run..<i]))
                switch action {
                case 1: break
                case 2: bytes.append(0x20)
                default: append(Self.entities[Int(action) - 3])
                }
                i += 1
                run = i
                continue
            }
            // Multi-byte scalars: only C1 controls, U+061C, the bidi controls and U+FFFE/FFFF are dropped.
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            var dropped = false
            switch byte {
            case 0xC2: dropped = i + 1 < count && input[i + 1] <= 0x9F
            case 0xD8: dropped = i + 1 < count && input[i + 1] == 0x9C
            case 0xE2 where i + 2 < count:
                let second = input[i + 1], third = input[i + 2]
                dropped = (second == 0x80 && (third == 0x8E || third == 0x8F || (0xAA...0xAE).contains(third)))
                    || (second == 0x81 && (0xA6...0xA9).contains(third))
            case 0xEF where i + 2 < count: dropped = input[i + 1] == 0xBF && (input[i + 2] == 0xBE || input[i + 2] == 0xBF)
            default: break
            }
            if dropped {
                // Each dropped case checked that its continuation bytes are inside the input.
                assert(run <= i && i + length <= count)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[run..<i]))
                run = i + length
            }
            i += length
        }
        assert(run <= count)
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[run..<count]))
    }
}
