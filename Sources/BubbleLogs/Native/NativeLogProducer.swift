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
    private var lastLine = 0
    private var reportedReadError = false

    init(lines: LineReader, file: String, options: LogReadOptions) {
        self.lines = lines
        self.file = file
        decoder = NativeRecordDecoder(me: options.me)
        fast = NativeFastDecoder(me: options.me)
    }

    func next() -> ProducedRecord? {
        guard let line = lines.next() else {
            if let code = lines.readError, !reportedReadError {
                reportedReadError = true
                let reason = "read error after this line: \(String(cString: strerror(code))); the rest of the input is lost"
                return .rejected(LogDiagnostic(position: LogPosition(file: file, line: lastLine + 1), reason: reason))
            }
            return nil
        }
        lastLine = line.number
        return produce(line)
    }

    private func produce(_ line: LineReader.Line) -> ProducedRecord {
        let position = LogPosition(file: file, line: line.number)
        func reject(_ reason: String) -> ProducedRecord { .rejected(LogDiagnostic(position: position, reason: reason)) }
        if line.isTooLong {
            return reject("line longer than \(lines.maximumLineLength >> 20) MiB")
        }
        if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .blank }
        if let offset = firstInvalidUTF8Offset(line.bytes) {
            let hex = String(line.bytes[offset], radix: 16, uppercase: true)
            return reject("invalid UTF-8: byte 0x\(hex) at column \(offset + 1)")
        }
        // Most lines are plain records: decoded from the bytes. The rest (and every error) go
        // through the full parser, which names the column.
        if let record = line.bytes.withUnsafeBufferPointer({ fast.decode($0) }) { return .record(record, position) }
        let value: JSONValue
        do {
            value = try JSONParser().parse(line.bytes, firstLine: line.number)
        } catch {
            return reject("malformed JSON at column \(error.column): \(error.message)")
        }
        guard let object = value.objectValue else {
            return reject("wrong type: each line must hold a JSON object, found \(value.kindName)")
        }
        do {
            return .record(try decoder.decode(object), position)
        } catch {
            return reject(error.description)
        }
    }
}
