/// Why a deflate stream could not be decoded.
struct InflateError: Error, Equatable, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// RFC 1951 (DEFLATE) decompression: stored, fixed-Huffman and dynamic-Huffman blocks.
///
/// The output size is known in advance (a zip entry states it), and a stream that would write
/// past it stops there with an error: a lying size cannot make us produce more than it said,
/// which is what the zip reader's limits are checked against.
enum Inflate {
    /// Decompresses `input` into exactly `size` bytes; throws when the stream is damaged, ends
    /// early, or decodes to another size.
    static func inflate(_ input: [UInt8], size: Int) throws(InflateError) -> [UInt8] {
        precondition(size >= 0)
        let stream = InflateStream(compressedCount: input.count, size: size) { offset, length in
            Array(input[offset..<(offset + length)])
        }
        var output: [UInt8] = []
        output.reserveCapacity(size)
        while try stream.read(appendingTo: &output) {}
        return output
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

/// A deflate stream decoded a chunk at a time: the compressed bytes are fetched in chunks of
/// `inputChunk` and the output handed out in chunks of about `outputChunk`, so memory holds the
/// 32 KiB window back-references reach, one input chunk and one output chunk, whatever the sizes.
///
/// `fetch(offset, length)` returns exactly `length` compressed bytes from `offset` (the caller
/// keeps them inside `compressedCount`), or nil when they cannot be read.
final class InflateStream {
    static let history = 32 << 10
    static let inputChunk = 64 << 10
    static let outputChunk = 64 << 10
    /// The message of the error thrown when `fetch` fails.
    static let cannotRead = "cannot read the compressed data"

    private let fetch: (Int, Int) -> [UInt8]?
    private let compressedCount: Int
    /// The size the stream must decode to.
    let size: Int
    /// Bytes decoded so far.
    private(set) var total = 0

    private var state: InflateState
    private var finished = false

    init(compressedCount: Int, size: Int, fetch: @escaping (Int, Int) -> [UInt8]?) {
        precondition(size >= 0 && compressedCount >= 0)
        self.fetch = fetch
        self.compressedCount = compressedCount
        self.size = size
        state = InflateState(capacity: Self.history + Self.outputChunk + 258)
    }

    deinit { state.deallocate() }

    /// Appends the next decoded bytes (about one output chunk) to `buffer`; false, having
    /// appended nothing, once the stream has ended with exactly `size` bytes. Throws when the
    /// stream is damaged, ends early, decodes to another size, or cannot be read.
    func read(appendingTo buffer: inout [UInt8]) throws(InflateError) -> Bool {
        guard !finished else { return false }
        let start = state.filled
        try state.decode(until: start + Self.outputChunk, size: size, total: &total, source: self)
        let produced = state.filled - start
        if produced > 0 {
            state.output.append(start..<(start + produced), to: &buffer)
        }
        state.slide(keeping: Self.history)
        if state.ended {
            finished = true
            guard total == size else { throw InflateError("decompresses to \(total) bytes, not the \(size) its header states") }
        }
        if produced == 0 { return try read(appendingTo: &buffer) }
        return true
    }

    /// The next chunk of compressed bytes into the state's input, or nil at the end of the stream.
    fileprivate func nextInput(from offset: Int) throws(InflateError) -> [UInt8]? {
        guard offset < compressedCount else { return nil }
        let length = min(Self.inputChunk, compressedCount - offset)
        guard let bytes = fetch(offset, length), bytes.count == length else {
            throw InflateError(Self.cannotRead)
        }
        return bytes
    }

    /// Compressed bytes not yet taken into the state's input.
    fileprivate func remaining(after offset: Int) -> Int { compressedCount - offset }
}

/// The decoder's position: a 64-bit bit buffer filled from the current input chunk a byte at a
/// time, the block being decoded, and the output window.
private struct InflateState {
    enum Block {
        case header
        case stored(remaining: Int)
        case huffman(HuffmanTable, HuffmanTable)
    }

    /// The current compressed chunk and where it starts in the stream.
    var input: [UInt8] = []
    var inputStart = 0
    var position = 0
    var bits: UInt64 = 0
    var bitCount = 0

    var block = Block.header
    var last = false
    var ended = false

    /// The window: the last `history` bytes handed out, then the bytes decoded since.
    let output: InflateWindow
    var capacity: Int { output.capacity }
    var filled = 0

    init(capacity: Int) {
        output = InflateWindow(capacity: capacity)
    }

    func deallocate() { output.deallocate() }

    /// Keeps the last `history` bytes at the start of the window.
    mutating func slide(keeping history: Int) {
        guard filled > history else { return }
        output.moveToStart(from: filled - history, count: history)
        filled = history
    }

    /// Decodes until the window holds `target` bytes (a match may run past it by up to 257) or
    /// the last block has ended.
    mutating func decode(until target: Int, size: Int, total: inout Int, source: InflateStream) throws(InflateError) {
        precondition(target + 258 <= capacity)
        while filled < target && !ended {
            switch block {
            case .header:
                if last {
                    ended = true
                    return
                }
                let header = try take(3, source)
                last = header & 1 == 1
                switch header >> 1 {
                case 0: block = .stored(remaining: try storedHeader(size: size, total: total, source))
                case 1: block = .huffman(Inflate.fixedLiteralLength, Inflate.fixedDistance)
                case 2:
                    let (literals, distances) = try dynamicTables(source)
                    block = .huffman(literals, distances)
                default: throw InflateError("invalid block type 3")
                }
            case .stored(let remaining):
                let count = min(remaining, target - filled)
                try copyStored(count, source)
                total += count
                block = remaining == count ? .header : .stored(remaining: remaining - count)
            case .huffman(let literals, let distances):
                if try codes(literals, distances, until: target, size: size, total: &total, source) { block = .header }
            }
        }
    }

    /// Takes the next compressed chunk when the current one is used up; false at the stream's end.
    @inline(__always)
    mutating func nextChunk(_ source: InflateStream) throws(InflateError) -> Bool {
        guard let chunk = try source.nextInput(from: inputStart + input.count) else { return false }
        inputStart += input.count
        input = chunk
        position = 0
        return true
    }

    /// Tops the bit buffer up to at least 57 bits, or to the end of the input.
    @inline(__always)
    mutating func refill(_ source: InflateStream) throws(InflateError) {
        while bitCount <= 56 {
            if position == input.count {
                guard try nextChunk(source) else { return }
            }
            bits |= UInt64(input[position]) << UInt64(bitCount)
            position += 1
            bitCount += 8
        }
    }

    @inline(__always)
    mutating func take(_ count: Int, _ source: InflateStream) throws(InflateError) -> Int {
        if bitCount < count {
            try refill(source)
            guard bitCount >= count else { throw InflateError("truncated: the deflate data ends inside a block") }
        }
        let value = Int(truncatingIfNeeded: bits & (1 << UInt64(count) - 1))
        bits >>= UInt64(count)
        bitCount -= count
        return value
    }

    @inline(__always)
    mutating func symbol(_ table: HuffmanTable, _ what: String, _ source: InflateStream) throws(InflateError) -> Int {
        if bitCount < HuffmanTable.maximumCodeLength { try refill(source) }
        guard let (symbol, length) = table.decode(bits) else {
            if position == input.count && source.remaining(after: inputStart + input.count) == 0 {
                throw InflateError("truncated: the deflate data ends inside a block")
            }
            throw InflateError("invalid \(what) code")
        }
        guard length <= bitCount else { throw InflateError("truncated: the deflate data ends inside a block") }
        bits >>= UInt64(length)
        bitCount -= length
        return symbol
    }

    /// A stored block's header, after the byte boundary: its length, checked against what is
    /// left of the input and of the stated size.
    mutating func storedHeader(size: Int, total: Int, _ source: InflateStream) throws(InflateError) -> Int {
        _ = try take(bitCount % 8, source)
        // Whole bytes: in the bit buffer, the rest of this chunk, and the chunks still to come.
        let available = bitCount / 8 + (input.count - position) + source.remaining(after: inputStart + input.count)
        guard available >= 4 else { throw InflateError("truncated: a stored block's header is cut off") }
        let length = try take(16, source)
        let complement = try take(16, source)
        guard length ^ complement == 0xFFFF else { throw InflateError("a stored block's length and its complement disagree") }
        guard available - 4 >= length else { throw InflateError("truncated: a stored block is cut off") }
        guard size - total >= length else { throw InflateError("decompresses to more than the size its header states") }
        return length
    }

    /// Copies `count` bytes of a stored block (known to be there) into the window.
    mutating func copyStored(_ count: Int, _ source: InflateStream) throws(InflateError) {
        var left = count
        while left > 0 && bitCount >= 8 {
            output[filled] = UInt8(truncatingIfNeeded: bits & 0xFF)
            bits >>= 8
            bitCount -= 8
            filled += 1
            left -= 1
        }
        while left > 0 {
            if position == input.count {
                guard try nextChunk(source) else { throw InflateError("truncated: a stored block is cut off") }
            }
            let step = min(left, input.count - position)
            output.copy(input, from: position, count: step, to: filled)
            position += step
            filled += step
            left -= step
        }
    }

    mutating func dynamicTables(_ source: InflateStream) throws(InflateError) -> (HuffmanTable, HuffmanTable) {
        let literalCount = try take(5, source) + 257
        let distanceCount = try take(5, source) + 1
        let codeLengthCount = try take(4, source) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw InflateError("a dynamic block declares \(literalCount) length and \(distanceCount) distance codes (at most 286 and 30)")
        }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<codeLengthCount { codeLengthLengths[Inflate.codeLengthOrder[i]] = UInt8(try take(3, source)) }
        let codeLengthCode: HuffmanTable
        do { codeLengthCode = try HuffmanTable(lengths: codeLengthLengths[...], rootBits: 7, allowsSingleCode: false) }
        catch { throw InflateError("invalid code-length code (\(error == .overSubscribed ? "over-subscribed" : "incomplete"))") }

        var lengths = [UInt8](repeating: 0, count: literalCount + distanceCount)
        var i = 0
        while i < lengths.count {
            let symbol = try self.symbol(codeLengthCode, "code-length", source)
            var repeated: UInt8 = 0, times = 0
            switch symbol {
            case 0...15:
                lengths[i] = UInt8(symbol)
                i += 1
                continue
            case 16:
                guard i > 0 else { throw InflateError("a repeat code with no length before it") }
                repeated = lengths[i - 1]
                times = 3 + (try take(2, source))
            case 17: times = 3 + (try take(3, source))
            default: times = 11 + (try take(7, source))
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

    /// A Huffman-coded block's symbols until the window holds `target` bytes; true when its
    /// end-of-block symbol was reached.
    mutating func codes(_ literals: HuffmanTable, _ distances: HuffmanTable, until target: Int, size: Int,
                        total: inout Int, _ source: InflateStream) throws(InflateError) -> Bool {
        while filled < target {
            let symbol = try self.symbol(literals, "literal/length", source)
            if symbol < 256 {
                guard total < size else { throw InflateError("decompresses to more than the size its header states") }
                output[filled] = UInt8(truncatingIfNeeded: symbol)
                filled += 1
                total += 1
                continue
            }
            if symbol == 256 { return true }
            let lengthCode = symbol - 257
            guard lengthCode < 29 else { throw InflateError("invalid length symbol \(symbol)") }
            let length = Inflate.lengthBase[lengthCode] + (try take(Inflate.lengthExtra[lengthCode], source))
            let distanceCode = try self.symbol(distances, "distance", source)
            guard distanceCode < 30 else { throw InflateError("invalid distance symbol \(distanceCode)") }
            let distance = Inflate.distanceBase[distanceCode] + (try take(Inflate.distanceExtra[distanceCode], source))
            guard distance <= total else { throw InflateError("a back-reference reaches \(distance) bytes back, before the start of the data") }
            guard size - total >= length else { throw InflateError("decompresses to more than the size its header states") }
            // Byte by byte: a match may overlap the bytes it is writing (a run). The window keeps
            // the last 32 KiB, as far as a distance reaches.
            output.copyMatch(at: filled, distance: distance, length: length)
            filled += length
            total += length
        }
        return false
    }
}
