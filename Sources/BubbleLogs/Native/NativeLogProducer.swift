#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams native JSON Lines: one record per line, each bad line rejected with one diagnostic.
final class NativeLogProducer: RecordProducer {
    private let lines: LineReader
    private let file: String
    private let decoder: NativeRecordDecoder
    private let fast: NativeFastDecoder
    /// The number of the line last read: one thread at a time (see `LogReader`).
    private let lastLine = ConfinedStorage(0)
    private var reportedReadError = false

    init(lines: LineReader, file: String, options: LogReadOptions) {
        self.lines = lines
        self.file = file
        decoder = NativeRecordDecoder(me: options.me)
        fast = NativeFastDecoder(me: options.me)
    }

    func next() -> ProducedRecord? {
        guard let produced = lines.withNextLine({ bytes, number, tooLong in
            lastLine.value = number
            return produce(bytes, number: number, isTooLong: tooLong)
        }) else { return endOfInput() }
        return produced
    }

    /// Plain records are written straight from their bytes (`NativeFastDecoder.transcribe`);
    /// every other line goes through `produce`, as `next` reads it.
    func nextNative(into out: inout OutputBuffer) -> ProducedNative? {
        guard let produced = lines.withNextLine({ bytes, number, tooLong -> ProducedNative in
            lastLine.value = number
            if !tooLong, firstInvalidUTF8Offset(bytes) == nil, let done = fast.transcribe(bytes, into: &out) {
                return .written(isOutgoing: done.isOutgoing, sender: done.sender)
            }
            return .produced(produce(bytes, number: number, isTooLong: tooLong))
        }) else { return endOfInput().map { .produced($0) } }
        return produced
    }

    var mayWaitForInput: Bool { lines.mayWaitForInput }

    var lastWrittenPosition: LogPosition? { LogPosition(file: file, line: lastLine.value) }

    /// A read error's diagnostic, once, at the end of the input.
    private func endOfInput() -> ProducedRecord? {
        if let code = lines.readError, !reportedReadError {
            reportedReadError = true
            let reason = "read error after this line: \(String(cString: strerror(code))); the rest of the input is lost"
            return .rejected(LogDiagnostic(position: LogPosition(file: file, line: lastLine.value + 1), reason: reason))
        }
        return nil
    }

    private func produce(_ bytes: ByteView, number: Int, isTooLong: Bool) -> ProducedRecord {
        let position = LogPosition(file: file, line: number)
        func reject(_ reason: String) -> ProducedRecord { .rejected(LogDiagnostic(position: position, reason: reason)) }
        if isTooLong {
            return reject("line longer than \(lines.maximumLineLength >> 20) MiB")
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .blank }
        // Most lines are plain records: decoded from the bytes, which proves them UTF-8 as it
        // makes their strings (one check of each byte, not two) and declines a line that is not.
        // The rest (and every error) go through the full parser, which names the column.
        if let record = fast.decode(bytes) {
            assert(firstInvalidUTF8Offset(bytes) == nil, "the fast decoder took a line that is not UTF-8")
            return .record(record, position)
        }
        if let offset = firstInvalidUTF8Offset(bytes) {
            let hex = String(bytes[offset], radix: 16, uppercase: true)
            return reject("invalid UTF-8: byte 0x\(hex) at column \(offset + 1)")
        }
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes, firstLine: number)
        } catch {
            return reject("malformed JSON at column \(error.column): \(error.message)")
        }
        guard let object = value.objectValue else {
            return reject("wrong type: each line must hold a JSON object, found \(value.described)")
        }
        do {
            var warnings: [String] = []
            let record = try decoder.decode(object, warnings: &warnings)
            if warnings.isEmpty { return .record(record, position) }
            return .recordWithWarnings(record, position, warnings.map { LogDiagnostic(position: position, reason: $0, isWarning: true) })
        } catch {
            return reject(error.description)
        }
    }
}
