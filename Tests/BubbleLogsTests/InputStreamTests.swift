import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Writes `bytes` into `fd` on its own thread and closes it: the other end of a pipe or a FIFO.
private func feed(_ bytes: [UInt8], into fd: Int32) {
    let writer = Thread {
        var rest = bytes[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            guard written > 0 else { break }
            rest = rest.dropFirst(written)
        }
        close(fd)
    }
    writer.start()
}

/// Reads `path` on another thread, giving up after `seconds` so that a reader that hangs (a FIFO
/// opened a second time waits for a writer forever) fails the test instead of stalling the run.
private func readBounded(_ path: String, seconds: Double = 30, unblock: @escaping @Sendable () -> Void = {}) -> ReadResult? {
    let done = DispatchSemaphore(value: 0)
    let box = Mutex<ReadResult?>(nil)
    let reader = Thread {
        let result = try? readAll(path)
        box.withLock { $0 = result }
        done.signal()
    }
    reader.start()
    guard done.wait(timeout: .now() + seconds) == .success else {
        unblock()
        _ = done.wait(timeout: .now() + 5)
        return nil
    }
    return box.withLock { $0 }
}

private func fixtureBytes(_ relative: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: corpus(relative))))
}

/// A WhatsApp file longer than the 64 KiB detection prefix, so the reader must go past it.
private func longWhatsApp(messages: Int) -> [UInt8] {
    var text = ""
    for n in 0..<messages {
        text += "14/01/2024, \(10 + n / 60 % 10):\(n % 60 < 10 ? "0" : "")\(n % 60) - Priya: message \(n) with some words to make the file long enough ✨\n"
    }
    return Array(text.utf8)
}

@Suite struct InputStreamTests {
    /// What `bubbles heights <(cat chat.txt)` opens: /dev/fd/N of a pipe.
    @Test(arguments: [false, true]) func whatsAppThroughAPipeKeepsEveryMessage(long: Bool) throws {
        let bytes = long ? longWhatsApp(messages: 2_000) : try fixtureBytes("exports/whatsapp/android-en_GB.txt")
        let expected = try readAll(temporaryFile(bytes, suffix: ".txt"))
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        feed(bytes, into: fds[1])
        let result = try #require(readBounded("/dev/fd/\(fds[0])"))
        close(fds[0])
        #expect(result.format == .whatsapp)
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == expected.texts && result.records.count == (long ? 2_000 : expected.records.count))
        #expect(result.counts == expected.counts)
    }

    /// `mkfifo f; cat chat.txt > f & bubbles render f` once hung: the path was opened again.
    @Test func whatsAppThroughANamedFIFODoesNotHang() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("chat.txt").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let bytes = longWhatsApp(messages: 1_500)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            guard fd >= 0 else { return }
            feed(bytes, into: fd)
        }
        writer.start()
        let result = readBounded(fifo, unblock: {
            // A reader stuck opening the FIFO again is released by a writer that closes at once.
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        })
        let read = try #require(result, "reading a FIFO hung")
        #expect(read.format == .whatsapp && read.records.count == 1_500 && read.diagnostics.isEmpty)
    }

    /// `cat chat.txt | bubbles convert -`: standard input itself, swapped for a pipe for this test.
    @Test func whatsAppFromStandardInputAPipeOrAFileAlreadyPartwayIn() throws {
        let bytes = try fixtureBytes("exports/whatsapp/ios-fr_FR.txt")
        let expected = try readAll(corpus("exports/whatsapp/ios-fr_FR.txt"))
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let savedStandardInput = dup(STDIN_FILENO)
        #expect(dup2(fds[0], STDIN_FILENO) == STDIN_FILENO)
        close(fds[0])
        defer {
            dup2(savedStandardInput, STDIN_FILENO)
            close(savedStandardInput)
        }
        feed(bytes, into: fds[1])
        let result = try #require(readBounded("-"))
        #expect(result.format == .whatsapp && result.texts == expected.texts && result.diagnostics.isEmpty)

        // `(head -n 1 >/dev/null; bubbles render -) < chat.txt`: standard input is a regular file
        // already partway in, and the second pass starts where the first did, not at byte 0.
        // (In the same test: both swap standard input, which the process has only one of.)
        let skipped = Array("this line was read by someone else\n".utf8)
        let path = temporaryFile(skipped + Array("13/01/2024, 20:15 - A: one\n13/01/2024, 20:16 - B: two\n".utf8), suffix: ".txt")
        let file = open(path, O_RDONLY)
        #expect(lseek(file, off_t(skipped.count), SEEK_SET) == off_t(skipped.count))
        #expect(dup2(file, STDIN_FILENO) == STDIN_FILENO)
        close(file)
        let partway = try #require(readBounded("-"))
        #expect(partway.format == .whatsapp && partway.texts == ["one", "two"] && partway.diagnostics.isEmpty)
    }

    /// The copy for WhatsApp's second pass goes to a temporary file, not memory.
    @Test func aPipeIsKeptForTheSecondPassOnDiskAndReplayedWhole() throws {
        let bytes = longWhatsApp(messages: 3_000)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        feed(bytes, into: fds[1])
        let input = try InputFile(path: "/dev/fd/\(fds[0])", display: "pipe")
        let passes = input.twoPassLines(crIsLineBreak: true)
        var first = 0
        while passes.first.next() != nil { first += 1 }
        let second = try passes.second()
        var replayed: [UInt8] = []
        while let line = second.next() { replayed += line.bytes + [0x0A] }
        close(fds[0])
        #expect(first == 3_000)
        #expect(replayed == bytes)
    }

    @Test func jsonLinesThroughAPipeSmallerThanTheDetectionPrefix() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        feed(Array(#"{"id":"1","type":"text","from":"A","date":0,"text":"hi"}"#.utf8) + [0x0A], into: fds[1])
        let result = try #require(readBounded("/dev/fd/\(fds[0])"))
        close(fds[0])
        #expect(result.format == .jsonl && result.texts == ["hi"])
    }

    @Test func aTelegramExportThroughAPipe() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        feed(try fixtureBytes("exports/telegram/single/result.json"), into: fds[1])
        let result = try #require(readBounded("/dev/fd/\(fds[0])"))
        close(fds[0])
        let expected = try readAll(corpus("exports/telegram/single/result.json"))
        #expect(result.format == .telegram && result.texts == expected.texts)
    }
}

@Suite struct LineEndingTests {
    /// Old Mac files end lines with a bare CR; they were read as one long message.
    @Test func whatsAppWithCROnlyLineEndingsReadsLikeTheLFFile() throws {
        let lf = try readAll(corpus("exports/whatsapp/android-en_GB.txt"))
        let cr = try readAll(corpus("exports/whatsapp/android-en_GB-cr.txt"))
        #expect(cr.format == .whatsapp && cr.diagnostics.isEmpty)
        #expect(cr.texts == lf.texts && cr.senders == lf.senders)
        #expect(cr.positions.map(\.line) == lf.positions.map(\.line))
        #expect(cr.records.count > 3)
    }

    @Test func minimalCROnlyFile() throws {
        let path = temporaryFile(Array("13/01/2024, 20:15 - A: one\rtwo\r13/01/2024, 20:16 - B: three\r".utf8), suffix: ".txt")
        let result = try readAll(path)
        #expect(result.texts == ["one\ntwo", "three"] && result.senders == ["A", "B"])
    }

    @Test func crlfIsOneBreakEvenWhenAChunkEndsBetweenCRAndLF() throws {
        // The CR falls on the last byte of the first 64 KiB chunk.
        let header = "13/01/2024, 20:15 - A: "
        let filler = String(repeating: "x", count: (64 << 10) - header.utf8.count - 1)
        let text = header + filler + "\r\n13/01/2024, 20:16 - B: next\r\n\r\n"
        for crIsLineBreak in [true, false] {
            let reader = LineReader(source: PrefixedSource(head: [], rest: ChunkedSource(Array(text.utf8), chunk: 64 << 10)), crIsLineBreak: crIsLineBreak)
            let lines = Array(sequence(state: reader) { $0.next() }).map { String(decoding: $0.bytes, as: UTF8.self) }
            #expect(lines == [header + filler, "13/01/2024, 20:16 - B: next", ""], "\(crIsLineBreak)")
        }
    }

    @Test func jsonLinesKeepsLFAsItsOnlyBreak() throws {
        let reader = LineReader(bytes: Array("a\rb\nc\r\n".utf8))
        let lines = Array(sequence(state: reader) { $0.next() }).map { String(decoding: $0.bytes, as: UTF8.self) }
        #expect(lines == ["a\rb", "c"])
    }
}

@Suite struct EncodingTests {
    @Test func utf16LittleEndianWhatsAppWithABOMReadsLikeItsUTF8Original() throws {
        let utf16 = try readAll(corpus("exports/whatsapp/ios-en_US-utf16le.txt"))
        let utf8 = try readAll(corpus("exports/whatsapp/ios-en_US.txt"))
        #expect(utf16.format == .whatsapp && utf16.diagnostics.isEmpty)
        #expect(utf16.texts == utf8.texts && utf16.senders == utf8.senders)
        #expect(utf16.records.map(\.date) == utf8.records.map(\.date))
    }

    @Test func utf16BigEndianJSONLines() throws {
        let result = try readAll(corpus("logs/sample-utf16be.jsonl"))
        #expect(result.format == .jsonl && result.diagnostics.isEmpty && result.records.count == 12)
        #expect(result.texts.contains { $0.unicodeScalars.contains { $0.value > 0xFFFF } }, "a non-BMP scalar came through a surrogate pair")
    }

    @Test func utf16ThroughAPipeAndAcrossChunks() throws {
        // Odd chunk sizes split code units and surrogate pairs between reads.
        let text = "13/01/2024, 20:15 - A: 😀 é 中\n13/01/2024, 20:16 - B: 🇬🇧\n"
        let encoded: [UInt8] = text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        for chunk in [1, 3, 7] {
            let source = UTF16DecodingSource(ChunkedSource(encoded, chunk: chunk), bigEndian: false)
            var out: [UInt8] = []
            while source.read(appendingTo: &out) {}
            #expect(out == Array(text.utf8), "chunk \(chunk)")
        }
    }

    @Test func damagedUTF16BecomesReplacementCharacters() {
        // A lone high surrogate before "A", a lone low surrogate, then an odd last byte.
        let source = UTF16DecodingSource(ChunkedSource([0x3D, 0xD8, 0x41, 0x00, 0x00, 0xDC, 0x42], chunk: 2), bigEndian: false)
        var out: [UInt8] = []
        while source.read(appendingTo: &out) {}
        #expect(String(decoding: out, as: UTF8.self) == "\u{FFFD}A\u{FFFD}\u{FFFD}")
    }

    /// The mark is not part of line 1, in either pass over the file.
    @Test func aUTF8ByteOrderMarkIsNotText() throws {
        let path = temporaryFile([0xEF, 0xBB, 0xBF] + Array("13/01/2024, 20:15 - A: one\n13/01/2024, 20:16 - B: two\n".utf8), suffix: ".txt")
        let result = try readAll(path)
        #expect(result.format == .whatsapp && result.texts == ["one", "two"] && result.senders == ["A", "B"])
        #expect(result.positions.first?.line == 1 && result.diagnostics.isEmpty)
    }

    @Test func utf32IsNamedNotCalledUnknown() {
        let path = temporaryFile([0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0], suffix: ".txt")
        #expect(openError(path)?.message.hasPrefix("UTF-32 text") == true)
    }

    @Test func magicIsReadFromTheFirstBytes() {
        #expect(InputMagic.sniff([0xEF, 0xBB, 0xBF, 0x7B]) == .utf8BOM)
        #expect(InputMagic.sniff([0xFF, 0xFE, 0x7B, 0x00]) == .utf16LittleEndian)
        #expect(InputMagic.sniff([0xFE, 0xFF]) == .utf16BigEndian)
        #expect(InputMagic.sniff([0x7B]) == .none)
        #expect(InputMagic.sniff([]) == .none)
    }
}

@Suite struct StructuralDetectionTests {
    /// DiscordChatExporter can write its JSON minified: one line, far over 64 KiB.
    @Test func aMinifiedDiscordExportOverTheDetectionPrefixIsThatExport() throws {
        var messages: [String] = []
        for n in 1...400 {
            messages.append(#"{"id":"\#(n)","type":"Default","timestamp":"2024-05-01T10:\#(n % 60 < 10 ? "0" : "")\#(n % 60):00+00:00","timestampEdited":null,"content":"message number \#(n), long enough that four hundred of them pass the detection prefix","author":{"id":"7","name":"ada","nickname":"Ada"},"attachments":[],"mentions":[]}"#)
        }
        let text = #"{"guild":{"id":"1","name":"Direct Messages"},"channel":{"id":"2","type":"DirectTextChat","name":"ada"},"dateRange":{"after":null,"before":null},"messages":["# + messages.joined(separator: ",") + #"],"messageCount":400}"#
        #expect(text.utf8.count > 64 << 10 && !text.contains("\n"))
        let result = try readAll(temporaryFile(Array(text.utf8), suffix: ".json"))
        #expect(result.format == .discord)
        #expect(result.records.count == 400 && result.diagnostics.isEmpty)
    }

    @Test func aMinifiedTelegramExportOverTheDetectionPrefixIsThatExport() throws {
        let messages = (1...500).map { n in
            #"{"id":\#(n),"type":"message","date":"2024-05-01T10:00:00","date_unixtime":"\#(1_714_557_600 + n)","from":"Ada","from_id":"user1","text":"message \#(n) of a chat exported without indentation"}"#
        }
        let text = #"{"name":"Ada","type":"personal_chat","id":1,"messages":["# + messages.joined(separator: ",") + "]}\n"
        #expect(text.utf8.count > 64 << 10)
        let result = try readAll(temporaryFile(Array(text.utf8), suffix: ".json"))
        #expect(result.format == .telegram && result.records.count == 500)
    }

    @Test func shapesAreToldApartByStructure() {
        func shape(_ text: String) -> JSONShape { JSONShape(Array(text.utf8)) }
        #expect(shape(#"{"id":"1","text":"{\"messages\":1}","n":{"chats":[]}}"#).topLevelKeys == ["id", "text", "n"])
        #expect(shape(#"{"id":"1"}"#).closes)
        #expect(!shape(#"{"guild":{"id":"1"},"messages":[{"id":"1","#).closes)
        #expect(shape(#"{"guild":{"id":"1"},"messages":[{"id":"1","#).topLevelKeys == ["guild", "messages"])
    }

    /// A first record cut short is JSON Lines with one bad line, not a broken document.
    @Test func aDamagedFirstRecordIsLeftToTheLineReader() throws {
        let text = #"{"id":"1","type":"text","from":"A","date":0,"text":"cut"# + "\n" + #"{"id":"2","type":"text","from":"B","date":1,"text":"ok"}"# + "\n"
        let result = try readAll(temporaryFile(Array(text.utf8)))
        #expect(result.format == .jsonl && result.texts == ["ok"] && result.diagnostics.count == 1)
    }

    @Test func jsonLinesWithALongFirstRecordIsStillJSONLines() throws {
        let long = String(repeating: "word ", count: 20_000)
        let text = #"{"id":"1","type":"text","from":"A","date":0,"text":"\#(long)"}"# + "\n" + #"{"id":"2","type":"text","from":"B","date":1,"text":"short"}"# + "\n"
        let result = try readAll(temporaryFile(Array(text.utf8)))
        #expect(result.format == .jsonl && result.records.count == 2)
    }
}

/// Serves bytes in fixed-size pieces, as a pipe might.
final class ChunkedSource: ByteSource {
    private var bytes: ArraySlice<UInt8>
    private let chunk: Int

    init(_ bytes: [UInt8], chunk: Int) {
        self.bytes = bytes[...]
        self.chunk = chunk
    }

    var readError: Int32? { nil }

    func read(appendingTo buffer: inout [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return false }
        buffer += bytes.prefix(chunk)
        bytes = bytes.dropFirst(chunk)
        return true
    }
}

