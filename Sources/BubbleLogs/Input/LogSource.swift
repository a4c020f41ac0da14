import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The entry point: opens a log or a chat export and returns a reader over its messages.
public enum LogSource {
    /// Opens `path` ("-" for standard input) as `format` (`.auto` detects it).
    ///
    /// Throws `LogInputError` when the input cannot be read as that format at all: a missing file,
    /// truncated or invalid JSON in an export, an unknown export schema, a WhatsApp file whose
    /// date format is not one we know. Problems with single records come later, from the reader,
    /// as `.diagnostic` entries.
    public static func open(path: String, format: LogFormat = .auto, options: LogReadOptions = LogReadOptions()) throws(LogInputError) -> LogReader {
        let display = path == "-" ? "<stdin>" : path
        if path != "-" {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw LogInputError(file: display, message: "no such file or folder")
            }
            if isDirectory.boolValue {
                guard format == .auto || format == .slack else {
                    throw LogInputError(file: display, message: "is a folder; a \(format) input is a single file (only a Slack export is a folder)")
                }
                let export = try SlackExport.producer(folder: path, options: options)
                let reader = LogReader(file: display, format: .slack, strict: options.strict, producer: export.producer)
                reader.warnings = export.warnings
                return reader
            }
        }
        let input = try InputFile(path: path, display: display)
        if ZipInput.isZip(path: path, head: input.prefix) {
            return try ZipInput.open(input, format: format, options: options)
        }
        if format == .slack {
            throw LogInputError(file: display, message: "a Slack export is a folder holding users.json, channels.json and one folder per channel (or a zip of one)")
        }
        var resolved = format
        if format == .auto {
            resolved = try detect(input)
        }
        let producer: RecordProducer
        switch resolved {
        case .jsonl:
            producer = NativeLogProducer(lines: input.streamingLines(), file: display, options: options)
        case .whatsapp:
            producer = try WhatsAppProducer(lines: input.lineSource(), file: display, options: options)
        case .telegram, .discord:
            let document = try input.parseDocument(allowingHexEscapes: resolved == .telegram)
            if resolved == .telegram {
                producer = try TelegramExport.producer(document: document, file: display, options: options)
            } else {
                producer = try DiscordExport.producer(document: document, file: display, options: options)
            }
        case .auto, .slack:
            preconditionFailure("resolved above")
        }
        return LogReader(file: display, format: resolved, strict: options.strict, producer: producer)
    }

    /// Decides the format from the first 64 KiB (and, for a JSON document, from its keys).
    private static func detect(_ input: InputFile) throws(LogInputError) -> LogFormat {
        let head = input.prefix
        var i = 0
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[i]) { i += 1 }
        guard i < head.count else {
            // An empty input is an empty log, whatever the format.
            return .jsonl
        }
        switch head[i] {
        case UInt8(ascii: "{"):
            // A pretty-printed JSON document (every export we read) opens with "{" alone on its
            // first line; JSON Lines opens with a whole record. A one-line document is told apart
            // by its keys, and a damaged first line is left to the line reader to report.
            let lineEnd = head[i...].firstIndex(of: 0x0A) ?? head.count
            let firstLine = Array(head[i..<lineEnd])
            let isLoneBrace = firstLine.allSatisfy { [0x7B, 0x20, 0x09, 0x0D].contains($0) }
            if !isLoneBrace {
                guard let parsed = try? JSONParser().parse(firstLine), let object = parsed.objectValue,
                      object["messages"] != nil || object["chats"] != nil else { return .jsonl }
            }
            let document = try input.parseDocument(allowingHexEscapes: true)
            guard let root = document.objectValue else { preconditionFailure("starts with {") }
            if root["guild"] != nil || root["channel"] != nil { return .discord }
            if root["chats"] != nil || root["personal_information"] != nil || root["messages"] != nil { return .telegram }
            throw LogInputError(file: input.display, message: "unknown JSON schema: expected a Telegram Desktop result.json (\"messages\" or \"chats\"), a DiscordChatExporter file (\"guild\", \"channel\", \"messages\") or JSON Lines (one object per line)")
        default:
            for line in head[i...].split(separator: 0x0A, omittingEmptySubsequences: true).prefix(20) {
                if WhatsAppLine.parseHeader(String(decoding: line, as: UTF8.self)) != nil { return .whatsapp }
            }
            if head[i] == UInt8(ascii: "[") {
                throw LogInputError(file: input.display, message: "a JSON array is not a chat log we know: expected JSON Lines, a Telegram or Discord export, or a Slack export folder (not one of its day files)")
            }
            throw LogInputError(file: input.display, message: "unrecognised format: expected JSON Lines, a Telegram result.json, a DiscordChatExporter JSON, a Slack export folder, or a WhatsApp .txt whose lines start like \"31/12/23, 21:05 - Name: text\" or \"[31/12/23, 21:05:09] Name: text\"")
        }
    }
}

/// An opened input: the descriptor plus the first bytes already read for detection.
final class InputFile {
    let path: String
    let display: String
    private(set) var fileDescriptor: Int32
    private(set) var prefix: [UInt8] = []
    private var prefixIsWhole = false
    private var document: JSONValue?

    init(path: String, display: String) throws(LogInputError) {
        self.path = path
        self.display = display
        if path == "-" {
            fileDescriptor = STDIN_FILENO
        } else {
            fileDescriptor = openForReading(path)
            if fileDescriptor < 0 {
                throw LogInputError(file: display, message: "cannot open: \(String(cString: strerror(errno)))")
            }
        }
        prefix = readUpTo(64 << 10)
        prefixIsWhole = prefix.count < 64 << 10
    }

    deinit { closeIfOwned() }

    private func closeIfOwned() {
        if path != "-", fileDescriptor >= 0 { _ = close(fileDescriptor) }
        fileDescriptor = -1
    }

    private func readUpTo(_ limit: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let got = bytes.withUnsafeMutableBytes { raw in read(fileDescriptor, raw.baseAddress! + count, limit - count) }
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { break }
            count += got
        }
        bytes.removeLast(limit - count)
        return bytes
    }

    /// Lines streamed from the descriptor; the reader takes over the descriptor.
    func streamingLines() -> LineReader {
        let reader = LineReader(fileDescriptor: fileDescriptor, closesOnEnd: path != "-", prefix: prefix)
        fileDescriptor = -1
        return reader
    }

    /// A way to read the lines more than once: reopening a file, or keeping standard input in memory.
    func lineSource() throws(LogInputError) -> () -> LineReader {
        if path == "-" {
            let bytes = try wholeInput()
            return { LineReader(bytes: bytes) }
        }
        closeIfOwned()
        let path = path
        return {
            let fd = openForReading(path)
            // The file opened a moment ago; if it vanished, reading it yields no lines.
            return fd >= 0 ? LineReader(fileDescriptor: fd, closesOnEnd: true) : LineReader(bytes: [])
        }
    }

    func wholeInput() throws(LogInputError) -> [UInt8] {
        var bytes = prefix
        if !prefixIsWhole {
            while true {
                let chunk = readUpTo(1 << 20)
                if chunk.isEmpty { break }
                bytes += chunk
            }
            prefix = bytes
            prefixIsWhole = true
        }
        return bytes
    }

    /// The whole input parsed as one JSON document (cached).
    func parseDocument(allowingHexEscapes: Bool) throws(LogInputError) -> JSONValue {
        if let document { return document }
        let bytes = try wholeInput()
        do {
            let value = try JSONParser(allowsHexEscapes: allowingHexEscapes).parse(bytes)
            document = value
            return value
        } catch {
            let what = error.isTruncation ? "truncated JSON" : "invalid JSON"
            throw LogInputError(file: display, line: error.line, message: "\(what) at column \(error.column): \(error.message); expected one complete JSON document")
        }
    }
}

private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC)
}
