/// Why a deflate stream could not be decoded.
struct InflateError: Error, Equatable, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// RFC 1951 (DEFLATE) decompression of a whole stream held in memory: stored, fixed-Huffman and
/// dynamic-Huffman blocks.
///
/// The output size is known in advance (a zip entry states it), so the output is allocated once
/// and a stream that would write past it stops there with an error: a lying size cannot make us
/// allocate more than it said, which is what the zip reader's limits are checked against.
enum Inflate {
    /// Decompresses `input` into exactly `size` bytes; throws when the stream is damaged, ends
    /// early, or decodes to another size.
    static func inflate(_ input: [UInt8], size: Int) throws(InflateError) -> [UInt8] {
        precondition(size >= 0)
        var failure: InflateError?
        let output = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            input.withUnsafeBufferPointer { source in
                var state = InflateState(input: source, output: buffer)
                do throws(InflateError) {
                    try state.run()
                    count = state.written
                    if state.written != size {
                        failure = InflateError("decompresses to \(state.written) bytes, not the \(size) its header states")
                    }
                } catch {
                    // Only the bytes written so far are initialised.
                    count = state.written
                    failure = error
                }
            }
        }
        if let failure { throw failure }
        return output
    }

    /// The first `count` bytes (or fewer) the stream decodes to, for reading a file's header
    /// without decompressing it all: decoding stops when the output is full, and a stream that is
    /// damaged or cut off gives the bytes decoded before the damage. Nothing is checked against a
    /// CRC here; a caller that keeps the bytes reads the entry whole.
    static func prefix(_ input: ArraySlice<UInt8>, count: Int) -> [UInt8] {
        precondition(count >= 0)
        // Room for one more back-reference (at most 258 bytes), which stops the decoder when it
        // does not fit: the first `count` bytes are then all written.
        let decoded = [UInt8](unsafeUninitializedCapacity: count + 258) { buffer, written in
            input.withUnsafeBufferPointer { source in
                var state = InflateState(input: source, output: buffer)
                state.keepsPartialBlocks = true
                try? state.run()
                written = state.written
            }
        }
        return decoded.count > count ? Array(decoded[..<count]) : decoded
    }

    /// Length codes 257…285: base lengths and extra bits (RFC 1951 §3.2.5), derived rather than typed.
    static let lengthBase: [Int] = {
        var bases: [Int] = [], base = 3
        for code in 0..<28 {
            bases.append(base)
            base += 1 << lengthExtra[code]
        }
        return bases + [258]
    }()
    static let lengthExtra: [Int] = (0..<29).map { $0 < 8 || $0 == 28 ? 0 : ($0 - 4) / 4 }
    /// Distance codes 0…29.
    static let distanceExtra: [Int] = (0..<30).map { $0 < 4 ? 0 : ($0 - 2) / 2 }
    static let distanceBase: [Int] = {
        var bases: [Int] = [], base = 1
        for code in 0..<30 {
            bases.append(base)
            base += 1 << distanceExtra[code]
        }
        return bases
    }()

    /// The fixed codes of block type 1 (RFC 1951 §3.2.6).
    static let fixedLiteralLength: HuffmanTable = {
        var lengths = [UInt8](repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        return try! HuffmanTable(lengths: lengths[...], rootBits: 9, allowsSingleCode: false)
    }()
    static let fixedDistance: HuffmanTable = {
        // 32 codes: 30 and 31 complete the code but are refused when they occur.
        try! HuffmanTable(lengths: [UInt8](repeating: 5, count: 32)[...], rootBits: 5, allowsSingleCode: false)
    }()

    /// The order in which a dynamic block sends the code-length code's lengths.
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
}

/// The decoder's position: a 64-bit bit buffer filled from the input a byte at a time, and the
/// output written so far.
private struct InflateState {
    let input: UnsafeBufferPointer<UInt8>
    let output: UnsafeMutableBufferPointer<UInt8>
    var position = 0
    var bits: UInt64 = 0
    var bitCount = 0
    var written = 0
    /// A stored block that does not fit is written as far as it does (`Inflate.prefix`).
    var keepsPartialBlocks = false

    init(input: UnsafeBufferPointer<UInt8>, output: UnsafeMutableBufferPointer<UInt8>) {
        self.input = input
        self.output = output
    }

    mutating func run() throws(InflateError) {
        var last = false
        while !last {
            let header = try take(3)
            last = header & 1 == 1
            switch header >> 1 {
            case 0: try storedBlock()
            case 1: try codes(Inflate.fixedLiteralLength, Inflate.fixedDistance)
            case 2:
                let (literals, distances) = try dynamicTables()
                try codes(literals, distances)
            default: throw InflateError("invalid block type 3")
            }
        }
    }

    /// Tops the bit buffer up to at least 57 bits, or to the end of the input.
    @inline(__always)
    mutating func refill() {
        while bitCount <= 56 && position < input.count {
            bits |= UInt64(input[position]) << UInt64(bitCount)
            position += 1
            bitCount += 8
        }
    }

    @inline(__always)
    mutating func take(_ count: Int) throws(InflateError) -> Int {
        if bitCount < count {
            refill()
            guard bitCount >= count else { throw InflateError("truncated: the deflate data ends inside a block") }
        }
        let value = Int(truncatingIfNeeded: bits & (1 << UInt64(count) - 1))
        bits >>= UInt64(count)
        bitCount -= count
        return value
    }

    @inline(__always)
    mutating func symbol(_ table: HuffmanTable, _ what: String) throws(InflateError) -> Int {
        if bitCount < HuffmanTable.maximumCodeLength { refill() }
        guard let (symbol, length) = table.decode(bits) else {
            if position == input.count { throw InflateError("truncated: the deflate data ends inside a block") }
            throw InflateError("invalid \(what) code")
        }
        guard length <= bitCount else { throw InflateError("truncated: the deflate data ends inside a block") }
        bits >>= UInt64(length)
        bitCount -= length
        return symbol
    }

    mutating func storedBlock() throws(InflateError) {
        // Skip to the byte boundary, then hand the whole bytes still in the buffer back to the input.
        _ = try take(bitCount % 8)
        position -= bitCount / 8
        bits = 0
        bitCount = 0
        guard input.count - position >= 4 else { throw InflateError("truncated: a stored block's header is cut off") }
        let length = Int(input[position]) | Int(input[position + 1]) << 8
        let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
        position += 4
        guard length ^ complement == 0xFFFF else { throw InflateError("a stored block's length and its complement disagree") }
        let fits = min(length, input.count - position, output.count - written)
        if fits < length, keepsPartialBlocks {
            // A prefix: as much of the block as there is input and room for, then stop.
            for i in 0..<fits { output[written + i] = input[position + i] }
            written += fits
            throw InflateError("the prefix is full")
        }
        guard input.count - position >= length else { throw InflateError("truncated: a stored block is cut off") }
        guard output.count - written >= length else { throw InflateError("decompresses to more than the size its header states") }
        for i in 0..<length { output[written + i] = input[position + i] }
        written += length
        position += length
    }

    mutating func dynamicTables() throws(InflateError) -> (HuffmanTable, HuffmanTable) {
        let literalCount = try take(5) + 257
        let distanceCount = try take(5) + 1
        let codeLengthCount = try take(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw InflateError("a dynamic block declares \(literalCount) length and \(distanceCount) distance codes (at most 286 and 30)")
        }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<codeLengthCount { codeLengthLengths[Inflate.codeLengthOrder[i]] = UInt8(try take(3)) }
        let codeLengthCode: HuffmanTable
        do { codeLengthCode = try HuffmanTable(lengths: codeLengthLengths[...], rootBits: 7, allowsSingleCode: false) }
        catch { throw InflateError("invalid code-length code (\(error == .overSubscribed ? "over-subscribed" : "incomplete"))") }

        var lengths = [UInt8](repeating: 0, count: literalCount + distanceCount)
        var i = 0
        while i < lengths.count {
            let symbol = try self.symbol(codeLengthCode, "code-length")
            var repeated: UInt8 = 0, times = 0
            switch symbol {
            case 0...15:
                lengths[i] = UInt8(symbol)
                i += 1
                continue
            case 16:
                guard i > 0 else { throw InflateError("a repeat code with no length before it") }
                repeated = lengths[i - 1]
                times = 3 + (try take(2))
            case 17: times = 3 + (try take(3))
            default: times = 11 + (try take(7))
            }
            guard i + times <= lengths.count else { throw InflateError("code lengths repeat past the end of the list") }
            for k in i..<(i + times) { lengths[k] = repeated }
            i += times
        }
        guard lengths[256] != 0 else { throw InflateError("a dynamic block has no end-of-block code") }
        let literals: HuffmanTable, distances: HuffmanTable
        do { literals = try HuffmanTable(lengths: lengths[0..<literalCount], rootBits: 10, allowsSingleCode: true) }
        catch { throw InflateError("invalid literal/length code (\(error == .overSubscribed ? "over-subscribed" : "incomplete"))") }
        do { distances = try HuffmanTable(lengths: lengths[literalCount...], rootBits: 8, allowsSingleCode: true) }
        catch { throw InflateError("invalid distance code (\(error == .overSubscribed ? "over-subscribed" : "incomplete"))") }
        return (literals, distances)
    }

    /// One Huffman-coded block, up to its end-of-block symbol.
    mutating func codes(_ literals: HuffmanTable, _ distances: HuffmanTable) throws(InflateError) {
        while true {
            let symbol = try self.symbol(literals, "literal/length")
            if symbol < 256 {
                guard written < output.count else { throw InflateError("decompresses to more than the size its header states") }
                output[written] = UInt8(truncatingIfNeeded: symbol)
                written += 1
                continue
            }
            if symbol == 256 { return }
            let lengthCode = symbol - 257
            guard lengthCode < 29 else { throw InflateError("invalid length symbol \(symbol)") }
            let length = Inflate.lengthBase[lengthCode] + (try take(Inflate.lengthExtra[lengthCode]))
            let distanceCode = try self.symbol(distances, "distance")
            guard distanceCode < 30 else { throw InflateError("invalid distance symbol \(distanceCode)") }
            let distance = Inflate.distanceBase[distanceCode] + (try take(Inflate.distanceExtra[distanceCode]))
            guard distance <= written else { throw InflateError("a back-reference reaches \(distance) bytes back, before the start of the data") }
            guard output.count - written >= length else { throw InflateError("decompresses to more than the size its header states") }
            // Byte by byte: a match may overlap the bytes it is writing (a run).
            var from = written - distance
            for to in written..<(written + length) {
                output[to] = output[from]
                from += 1
            }
            written += length
        }
    }
}
