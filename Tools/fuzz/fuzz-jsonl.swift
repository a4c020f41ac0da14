// libFuzzer harness: the JSON Lines record reader, through `LogSource.open` as the CLI calls it.
// Invariants (see `checkReader`): every non-blank line is exactly one record, a message or a
// diagnostic naming that line, never both and never neither; every message is laid out. And
// `convert`'s path (`checkConvert`) writes what the records read would write of themselves.
@testable import BubbleLogs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    // UTF-32 (by its byte order mark) is refused whole.
    let raw = Array(input)
    if raw.starts(with: [0xFF, 0xFE, 0, 0]) || raw.starts(with: [0, 0, 0xFE, 0xFF]) {
        let outcome = checkReader(bytes: input, name: "log.jsonl", format: .jsonl)
        require(outcome.refused, "a UTF-32 input was read")
        return 0
    }
    var bytes = raw
    if raw.starts(with: [0xEF, 0xBB, 0xBF]) {
        // A UTF-8 byte order mark is not text: the reader drops it, as it drops UTF-16's. (The
        // harness once counted it as the first line's content, so a mark before a blank line
        // made a record the reader rightly did not see: Corpora/findings/jsonl-utf8-bom-blank-line.bin.)
        bytes = Array(raw.dropFirst(3))
    } else if case let magic = InputMagic.sniff(raw), magic.isUTF16 {
        // UTF-16 is decoded here by the standard library, independently of the reader's decoder,
        // before lines are counted. An odd last byte is a truncated code unit: one U+FFFD, as
        // the Unicode standard's and WHATWG's decoders give (the harness once dropped it, and
        // counted a line fewer than the reader: Corpora/findings/jsonl-utf16-line-count.bin).
        // Whether it is UTF-16 is the reader's call when there is no mark (its zero bytes), so
        // that decision is asked of the reader's sniffer (the whole input is its first read).
        let bigEndian = magic.isBigEndian
        var units: [UInt16] = []
        for i in stride(from: magic.length, to: raw.count - 1, by: 2) {
            let high: UInt16 = bigEndian ? UInt16(raw[i]) : UInt16(raw[i + 1])
            let low: UInt16 = bigEndian ? UInt16(raw[i + 1]) : UInt16(raw[i])
            units.append(high << 8 | low)
        }
        if raw.count % 2 == 1 { units.append(0xFFFD) }
        // `transcode` with repair is `String(decoding:as:)`'s decoding without building a String
        // (that was 9% of the harness's time).
        bytes = []
        bytes.reserveCapacity(units.count * 3)
        _ = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: false) { bytes.append($0) }
    }
    // Counted here, independently of the reader: lines end at LF, a CR ending a line is dropped,
    // and blank means spaces and tabs only. A text whose start holds CRs and no LF has old Mac line
    // ends: each CR ends a line (the harness once counted such a file as one line:
    // Corpora/findings/jsonl-cr-only-line-ends.bin; decided on the text, UTF-16 decoded:
    // jsonl-cr-only-utf16.bin).
    let head = bytes.prefix(65_536)
    let lineEnd: UInt8 = !head.contains(0x0A) && head.contains(0x0D) ? 0x0D : 0x0A
    var nonBlankLines = Set<Int>()
    var line = 1
    var lineStart = 0
    func endLine(at end: Int) {
        var content = bytes[lineStart..<end]
        if content.last == 0x0D { content = content.dropLast() }
        if !content.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { nonBlankLines.insert(line) }
    }
    for (offset, byte) in bytes.enumerated() where byte == lineEnd {
        endLine(at: offset)
        line += 1
        lineStart = offset + 1
    }
    if lineStart < bytes.count { endLine(at: bytes.count) }
    let outcome = checkReader(bytes: input, name: "log.jsonl", format: .jsonl,
                              expectedRecords: nonBlankLines.count)
    require(!outcome.refused, "a JSON Lines input was refused whole")
    let lines = outcome.messagePositions.map { $0.line ?? -1 } + outcome.diagnostics.map { $0.line ?? -1 }
    require(Set(lines) == nonBlankLines && lines.count == nonBlankLines.count,
            "records by line \(lines.sorted()) for the non-blank lines \(nonBlankLines.sorted())")
    checkConvert(input, read: outcome)
    return 0
}

/// `convert`'s path, `LogReader.nextNative` (a plain record is written straight from the input's
/// bytes, through the fast decoder, its UTF-8 check and the JSON escaper, with no record built),
/// against the records `next` reads: the same lines, each a record's `nativeLine`, and the same
/// diagnostics in the same order.
func checkConvert(_ input: UnsafeRawBufferPointer, read outcome: ReadOutcome) {
    let reader: LogReader
    do {
        reader = try LogSource.open(bytes: Array(input), name: "log.jsonl", format: .jsonl, options: utcReading)
    } catch {
        invariantFailed("opened once, refused the second time: \(error)", file: #fileID, line: #line)
    }
    var out = OutputBuffer()
    var written = 0
    var rejected: [String] = [], warned: [String] = []
    while let step = reader.nextNative(into: &out) {
        switch step {
        case .written: written += 1
        case .diagnostic(let diagnostic):
            if diagnostic.isWarning { warned.append("\(diagnostic)") } else { rejected.append("\(diagnostic)") }
        }
    }
    require(written == outcome.messages.count, "convert wrote \(written) records, next read \(outcome.messages.count)")
    require(rejected == outcome.diagnostics.map { "\($0)" }, "convert rejected \(rejected), next \(outcome.diagnostics)")
    require(warned == outcome.warnings.map { "\($0)" }, "convert warned \(warned), next \(outcome.warnings)")
    var expected: [UInt8] = []
    for record in outcome.messages {
        expected += record.nativeLine.utf8
        expected.append(0x0A)
    }
    let bytes = out.bytes
    require(bytes == expected, "convert wrote \(String(decoding: bytes, as: UTF8.self)) where the records write \(String(decoding: expected, as: UTF8.self))")
}
