import BubbleLayout
import BubbleSamples
import BubbleTestSupport
import BubbleText
@testable import BubbleLogs
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Chat exports read straight from their `.zip` (Corpora/exports/zip, made by
/// Corpora/tools/make_zip_fixtures.sh with Info-ZIP's zip from the unzipped fixtures beside them).
@Suite struct ZipInputTests {
    /// The archive gives the same records as the file or folder it was made from.
    static func expectSameRecords(_ zipped: ReadResult, _ plain: ReadResult) {
        #expect(zipped.records.count == plain.records.count)
        for (a, b) in zip(zipped.records, plain.records) { #expect(a.isSameRecord(as: b)) }
        #expect(zipped.texts == plain.texts)
        #expect(zipped.counts == plain.counts)
    }

    @Test func whatsAppIOSArchiveReadsItsChatTxt() throws {
        let path = corpus("exports/zip/WhatsApp Chat - Camille.zip")
        let zipped = try readAll(path, options: LogReadOptions(me: "Camille", timeZone: utc))
        #expect(zipped.format == .whatsapp)
        #expect(zipped.positions.first?.file == path + ":_chat.txt")
        Self.expectSameRecords(zipped, try readAll(corpus("exports/whatsapp/ios-fr_FR.txt"), options: LogReadOptions(me: "Camille", timeZone: utc)))
    }

    @Test func whatsAppAndroidArchiveReadsItsNamedTxt() throws {
        let path = corpus("exports/zip/WhatsApp Chat with Ana.zip")
        let zipped = try readAll(path, format: .whatsapp)
        #expect(zipped.positions.first?.file == path + ":WhatsApp Chat with Ana.txt")
        Self.expectSameRecords(zipped, try readAll(corpus("exports/whatsapp/android-en_US-12h.txt")))
    }

    /// A text document shared in the chat sits beside the chat in an Android archive.
    @Test(arguments: ["exports/zip/android-with-document.zip", "exports/zip/android-renamed.zip"])
    func theChatIsFoundBesideASharedTextDocument(fixture: String) throws {
        let zipped = try readAll(corpus(fixture))
        #expect(zipped.format == .whatsapp)
        #expect(zipped.positions.first?.file.hasSuffix(".zip:Chat de WhatsApp con Ana.txt") == true || zipped.positions.first?.file.hasSuffix(".zip:ana.txt") == true)
        Self.expectSameRecords(zipped, try readAll(corpus("exports/whatsapp/android-es_AR.txt")))
    }

    /// Two chats zipped together (as a user may zip two Android exports): the first is read as
    /// alone, and the other is named in one warning, not passed over in silence.
    @Test func anArchiveWithTwoChatsReadsOneAndNamesTheOther() throws {
        let path = corpus("exports/zip/two-chats.zip")
        let zipped = try readAll(path)
        #expect(zipped.format == .whatsapp)
        #expect(zipped.positions.first?.file == path + ":WhatsApp Chat with Ana.txt")
        Self.expectSameRecords(zipped, try readAll(corpus("exports/whatsapp/android-es_AR.txt")))
        let reader = try LogSource.open(path: path, options: LogReadOptions(timeZone: utc))
        #expect(reader.warnings.count == 1)
        let warning = try #require(reader.warnings.first)
        // Said once on stderr as `bubbles: warning: ARCHIVE: …`, as the Slack reader's warnings are.
        #expect(warning.description.hasPrefix(path + ": the archive holds more than one chat"))
        #expect(warning.description.contains("read \"WhatsApp Chat with Ana.txt\", not \"WhatsApp Chat with Ben.txt\""))
        #expect(!warning.description.contains("notas.txt"))
        // One chat alone, beside a document, gets no warning.
        #expect(try LogSource.open(path: corpus("exports/zip/android-with-document.zip"), options: LogReadOptions(timeZone: utc)).warnings.isEmpty)
        #expect(try LogSource.open(path: corpus("exports/zip/WhatsApp Chat - Camille.zip"), options: LogReadOptions(timeZone: utc)).warnings.isEmpty)
    }

    @Test func slackArchiveReadsLikeTheFolder() throws {
        let path = corpus("exports/zip/slack-export.zip")
        let zipped = try readAll(path, options: LogReadOptions(me: "Sam", timeZone: utc))
        #expect(zipped.format == .slack)
        #expect(zipped.diagnostics.isEmpty)
        #expect(zipped.positions[2].file == path + ":general/2024-05-01.json")
        Self.expectSameRecords(zipped, try readAll(corpus("exports/slack/export"), options: LogReadOptions(me: "Sam", timeZone: utc)))
        let random = try readAll(path, format: .slack, options: LogReadOptions(timeZone: utc, conversation: "#random"))
        #expect(random.records.map(\.id) == ["1714558000.000100", "1714558060.000200"])
    }

    @Test func diagnosticsNameTheArchiveTheEntryAndTheLine() throws {
        let path = corpus("exports/zip/damaged-chat.zip")
        let zipped = try readAll(path)
        let plain = try readAll(corpus("exports/whatsapp/damaged.txt"))
        #expect(zipped.diagnostics.count == 3)
        #expect(zipped.diagnostics.map(\.reason) == plain.diagnostics.map(\.reason))
        #expect(zipped.diagnostics.map(\.line) == plain.diagnostics.map(\.line))
        #expect(zipped.diagnosticLines.first == path + ":_chat.txt:1: a line without a date before the first message (expected \"31/12/23, 21:05 - Name: text\")")
    }

    @Test func aBombIsOneWholeFileErrorNamingTheEntry() throws {
        let error = try #require(openError(corpus("zip/bomb.zip")))
        #expect(error.file == corpus("zip/bomb.zip") + ":_chat.txt")
        #expect(error.message.hasSuffix("more than the limit of 200:1; a zip bomb?"))
    }

    @Test func anArchiveWithoutAChatSaysWhatItHolds() throws {
        let error = try #require(openError(corpus("zip/info-zip.zip")))
        #expect(error.message == "a zip archive holding neither a WhatsApp chat (_chat.txt, or one \"WhatsApp Chat with NAME.txt\") nor a Slack export (channels.json, or one channel's folder of day files); it holds \"logs/sample.jsonl\", \"unicode/GraphemeBreakTest.txt\", \"exports/whatsapp/ios-fr_FR.txt\", \"logs/hostile.jsonl\", \"exports/whatsapp/android-de_DE.txt\"")
        #expect(openError(corpus("exports/zip/slack-export.zip"), format: .whatsapp)?.message.hasPrefix("no WhatsApp chat in this archive") == true)
        #expect(openError(corpus("exports/zip/WhatsApp Chat with Ana.zip"), format: .slack)?.message.hasPrefix("no Slack export in this archive") == true)
        #expect(openError(corpus("exports/zip/slack-export.zip"), format: .discord)?.message
            == "a zip archive; only WhatsApp, Slack, Messenger, Google Chat and Hangouts exports are read from one (--input auto, whatsapp, slack, messenger, googlechat or hangouts)")
        // A truncated archive is found out by its missing end record.
        let bytes = Array(FileManager.default.contents(atPath: corpus("exports/zip/slack-export.zip"))!)
        let cut = temporaryFile(Array(bytes.prefix(bytes.count / 2)), suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: cut) }
        #expect(openError(cut)?.message == "no end-of-central-directory record: not a zip archive, or one cut off at the end")
    }

    /// Through a named pipe, without a .zip name: found by its magic, read into memory, same records.
    @Test func anArchiveFromAPipeIsDetectedByItsMagic() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("bubblelogs-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let bytes = Array(FileManager.default.contents(atPath: corpus("exports/zip/WhatsApp Chat with Ana.zip"))!)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
        writer.start()
        let piped = try readAll(fifo)
        #expect(piped.format == .whatsapp)
        Self.expectSameRecords(piped, try readAll(corpus("exports/whatsapp/android-en_US-12h.txt")))
    }
}

@Suite struct ZipInputLimitTests {
    @Test func anArchiveFromAPipeIsHeldInMemoryOnlyUpToItsLimit() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("bubblelogs-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let bytes = Array(FileManager.default.contents(atPath: corpus("exports/zip/slack-export.zip"))!)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
        writer.start()
        var limits = ZipLimits.standard
        limits.maximumStreamedArchive = 1_000
        let input = try InputFile(path: fifo, display: "pipe")
        #expect(throws: LogInputError(file: "pipe", message: "an archive read from a pipe is held in memory, and this one is larger than the limit of 1000 bytes; read it from a file")) {
            try ZipInput.open(input, format: .auto, options: LogReadOptions(timeZone: utc), limits: limits)
        }
    }

    /// Seeded damage to each zipped export, read end to end: a whole-file error or a read whose
    /// counts reconcile, never a crash.
    @Test(arguments: ["exports/zip/slack-export.zip", "exports/zip/WhatsApp Chat - Camille.zip", "exports/zip/slack-hostile.zip"])
    func damagedZippedExportsNeverCrash(fixture: String) throws {
        let original = Array(FileManager.default.contents(atPath: corpus(fixture))!)
        var random = SeededGenerator(seed: 0x5EED_0017)
        var opened = 0, refused = 0
        for _ in 0..<60 {
            var damaged = original
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            let path = temporaryFile(damaged, suffix: ".zip")
            defer { try? FileManager.default.removeItem(atPath: path) }
            do {
                let result = try readAll(path)
                #expect(result.counts.reconciles)
                opened += 1
            } catch {
                refused += 1
            }
        }
        #expect(opened + refused == 60 && refused > 0)
    }
}
