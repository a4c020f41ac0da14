import BubbleTestSupport
@testable import BubbleLogs
import Foundation
import Testing

/// `LogSource.open(bytes:name:)` reads bytes in memory exactly as `open(path:)` reads a file
/// holding them: the same error, or the same format, entries (records, positions, diagnostics
/// and warnings, in order), counts, notes and senders, with the name where the path would be.
@Suite struct LogSourceBytesTests {
    /// Everything a read gives that a user can see, comparable as a whole.
    private struct Outcome: Equatable {
        var error: LogInputError?
        var format: LogFormat?
        var file = ""
        var entries: [Entry] = []
        var counts = LogCounts()
        var warnings: [LogDiagnostic] = []
        var notes: [String] = []
        var firstSenders: [String] = []
        var stoppedEarly = false

        enum Entry: Equatable {
            case message(AnyHashable, LogPosition)
            case diagnostic(LogDiagnostic)
        }
    }

    private func outcome(_ open: () throws(LogInputError) -> LogReader) -> Outcome {
        var outcome = Outcome()
        let reader: LogReader
        do {
            reader = try open()
        } catch {
            outcome.error = error
            return outcome
        }
        outcome.format = reader.format
        outcome.file = reader.file
        outcome.warnings = reader.warnings
        outcome.notes = reader.notes
        for entry in reader {
            switch entry {
            case .message(var record, let position):
                // A file's reader also sizes pictures from the files of the export beside it (an
                // unzipped export's folder), which bytes in memory have not: those sizes are left out.
                if let media = reader.media, let image = record as? LogImageMessage,
                   let size = media.size(ofPictureNamed: image.imageName), image.pixelWidth == size.width, image.pixelHeight == size.height {
                    record = LogImageMessage(header: image.header, pixelWidth: nil, pixelHeight: nil, imageName: image.imageName,
                                             caption: image.caption, captionSpans: image.captionSpans)
                }
                outcome.entries.append(.message(AnyHashable(record), position))
            case .diagnostic(let diagnostic): outcome.entries.append(.diagnostic(diagnostic))
            }
        }
        outcome.counts = reader.counts
        outcome.firstSenders = reader.firstSenders
        outcome.stoppedEarly = reader.stoppedEarly
        return outcome
    }

    /// Reads `path` from the file and from its bytes as `format`, and checks the two agree.
    private func expectSameRead(_ path: String, format: LogFormat, options: LogReadOptions) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let fromFile = outcome { () throws(LogInputError) in try LogSource.open(path: path, format: format, options: options) }
        let fromBytes = outcome { () throws(LogInputError) in try LogSource.open(bytes: bytes, name: path, format: format, options: options) }
        #expect(fromFile == fromBytes, "\(path) as \(format)")
    }

    /// Every single-file log and export in Corpora/ (JSON Lines, UTF-16 ones included, WhatsApp
    /// texts, Telegram and Discord exports, zips of WhatsApp and Slack exports, damaged and
    /// truncated ones, Slack day files and hostile archives, which are refused), read as every
    /// format, leniently and strictly.
    @Test func bytesInMemoryReadAsTheFileHoldingThemOnEveryCorpusFile() throws {
        var files: [String] = []
        for folder in ["logs", "exports", "zip"] {
            let root = corpus(folder)
            let walker = FileManager.default.enumerator(atPath: root)!
            while let relative = walker.nextObject() as? String {
                var isFolder: ObjCBool = false
                let path = root + "/" + relative
                if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                   !relative.hasSuffix(".deflate") {
                    files.append(path)
                }
            }
        }
        #expect(files.count > 50)
        let lenient = LogReadOptions(timeZone: utc)
        var strict = lenient
        strict.strict = true
        for path in files.sorted() {
            for format in [LogFormat.auto, .jsonl, .whatsapp, .telegram, .discord, .slack] {
                try expectSameRead(path, format: format, options: lenient)
            }
            try expectSameRead(path, format: .auto, options: strict)
        }
    }

    /// Inputs of three or more 64 KiB chunks (where a file is read in more than one piece): JSON Lines,
    /// a UTF-16 WhatsApp chat read in two passes, and an export minified onto one line whose
    /// keys lie past the detection prefix.
    @Test func bytesOfManyChunksReadAsTheFileHoldingThem() throws {
        let read = { (name: String) in try [UInt8](Data(contentsOf: URL(fileURLWithPath: corpus(name)))) }
        let lines = try read("logs/sample.jsonl"), damaged = try read("logs/bad.jsonl")
        let chat = try String(contentsOfFile: corpus("exports/whatsapp/android-en_GB.txt"), encoding: .utf8)
        var longLines: [UInt8] = []
        while longLines.count < 300_000 { longLines += lines + damaged }
        var longChat = ""
        while longChat.utf16.count < 200_000 { longChat += chat }
        var utf16Chat: [UInt8] = [0xFF, 0xFE]
        for unit in longChat.utf16 { utf16Chat += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let message = #"{"id":1,"type":"message","date":"2024-05-01T10:00:00","from":"Ana","text":"hola"},"#
        // Its export keys come after the first 64 KiB, which is all detection sees of a file.
        let minified = #"{"about":""# + String(repeating: "x", count: 70_000) + #"","name":"Ana","type":"personal_chat","id":1,"messages":["#
            + String(repeating: message, count: 1_500) + message.dropLast() + "]}"
        let cases: [(bytes: [UInt8], suffix: String)] = [
            (longLines, ".jsonl"), (utf16Chat, ".txt"), (Array(minified.utf8), ".json"),
        ]
        for (bytes, suffix) in cases {
            #expect(bytes.count > 2 * DescriptorSource.chunk)
            let path = temporaryFile(bytes, suffix: suffix)
            defer { try? FileManager.default.removeItem(atPath: path) }
            for format in [LogFormat.auto, .jsonl, .whatsapp, .telegram] {
                try expectSameRead(path, format: format, options: LogReadOptions(timeZone: utc))
            }
        }
    }

    /// The name stands for the file everywhere: in diagnostics, in errors, and (ending in `.zip`)
    /// in choosing to read the bytes as an archive.
    @Test func theNameIsWhereDiagnosticsAndErrorsPoint() throws {
        let bytes = Array("{\"id\":\"1\"}\n".utf8)
        let reader = try LogSource.open(bytes: bytes, name: "upload 7", format: .jsonl)
        let diagnostics = reader.compactMap(\.diagnostic)
        #expect(diagnostics.map(\.position) == [LogPosition(file: "upload 7", line: 1)])
        #expect(diagnostics.first?.description.hasPrefix("upload 7:1: ") == true)
        #expect(throws: LogInputError.self) { try LogSource.open(bytes: Array("hello".utf8), name: "note.txt") }
        do {
            _ = try LogSource.open(bytes: bytes, name: "chat.zip")
            Issue.record("a .zip name reads the bytes as an archive")
        } catch {
            #expect(error.file == "chat.zip")
        }
    }
}
