import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Names from a Slack export never lead out of it, and what is not a day file is said for what it
/// is (issue 17, items 2 and 8). Each test builds a minimal export in a temporary folder.
@Suite struct SlackExportSafetyTests {
    /// A temporary folder holding `export/` (the Slack export) and `outside/` (a sibling it must not reach).
    final class Sandbox {
        let base: String
        var export: String { base + "/export" }
        var outside: String { base + "/outside" }

        init(channels: [String]) {
            base = FileManager.default.temporaryDirectory.appendingPathComponent("bubblelogs-slack-\(UUID().uuidString)").path
            try! FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
            try! FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
            write("users.json", #"[{"id":"U1","name":"ann"}]"#)
            let list = channels.enumerated().map { #"  {"id":"C\#($0.offset)","name":"\#($0.element)"}"# }
            write("channels.json", "[\n" + list.joined(separator: ",\n") + "\n]\n")
            day(in: outside + "/secret", "2024-05-01.json", text: "secret")
        }

        deinit { try? FileManager.default.removeItem(atPath: base) }

        func write(_ relative: String, _ text: String) {
            let path = export + "/" + relative
            try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        }

        func day(in folder: String, _ name: String, text: String) {
            try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(#"[{"type":"message","user":"U1","text":"\#(text)","ts":"1714557600.000100"}]"#.utf8))
        }

        func read(channel: String? = nil) throws -> (ReadResult, [LogDiagnostic]) {
            let reader = try LogSource.open(path: export, options: LogReadOptions(timeZone: utc, conversation: channel))
            var result = ReadResult()
            for entry in reader {
                if let record = entry.record { result.records.append(record) }
                if let diagnostic = entry.diagnostic { result.diagnostics.append(diagnostic) }
            }
            result.counts = reader.counts
            return (result, reader.warnings)
        }
    }

    @Test func aChannelNameWithDotDotOrASeparatorIsRejectedAtItsLine() throws {
        let box = Sandbox(channels: ["general", "../outside/secret", "a/b", ".."])
        box.day(in: box.export + "/general", "2024-05-01.json", text: "hello")
        let (result, warnings) = try box.read()
        #expect(result.texts == ["#general", "hello"])
        #expect(!result.texts.contains("secret"))
        #expect(result.diagnosticLines == [
            box.export + "/channels.json:3: channel name \"../outside/secret\" is not a folder name inside the export (empty, \".\" or \"..\", or holding a path separator); its messages are not read",
            box.export + "/channels.json:4: channel name \"a/b\" is not a folder name inside the export (empty, \".\" or \"..\", or holding a path separator); its messages are not read",
            box.export + "/channels.json:5: channel name \"..\" is not a folder name inside the export (empty, \".\" or \"..\", or holding a path separator); its messages are not read",
        ])
        #expect(warnings.isEmpty && result.counts.reconciles)
    }

    @Test func symbolicLinksOutOfTheExportAreNotFollowed() throws {
        let box = Sandbox(channels: ["linked", "general", "inside"])
        // A channel folder that is a link out, a day file that is a link out, and a link that stays inside.
        #expect(symlink("../outside/secret", box.export + "/linked") == 0)
        box.day(in: box.export + "/general", "2024-05-01.json", text: "hello")
        #expect(symlink("../../outside/secret/2024-05-01.json", box.export + "/general/2024-05-02.json") == 0)
        #expect(symlink("general", box.export + "/inside") == 0)
        let (result, _) = try box.read()
        #expect(!result.texts.contains("secret"))
        #expect(result.texts == ["#general", "hello", "#inside", "hello"])
        #expect(result.diagnosticLines == [
            box.export + "/linked: a symbolic link leading out of the export (not followed), not a channel folder; the messages of #linked are not read",
            box.export + "/general/2024-05-02.json: a symbolic link leading out of the export (not followed), not a day file of messages",
            // The same link seen again through the channel that links inside.
            box.export + "/inside/2024-05-02.json: a symbolic link leading out of the export (not followed), not a day file of messages",
        ])
    }

    @Test func aListedChannelWithoutAFolderIsAWarning() throws {
        let box = Sandbox(channels: ["general", "quiet"])
        box.day(in: box.export + "/general", "2024-05-01.json", text: "hello")
        let (result, warnings) = try box.read()
        #expect(result.diagnostics.isEmpty)
        #expect(warnings.map(\.description) == [box.export + "/channels.json:3: channel #quiet has no folder in the export, so no messages"])
        #expect(result.texts == ["hello"] || result.texts == ["#general", "hello"])
        // Reading another channel, the missing one is not mentioned.
        let (_, chosen) = try box.read(channel: "general")
        #expect(chosen.isEmpty)
    }

    @Test func dayFilesThatAreNotFilesAreReportedAsWhatTheyAre() throws {
        let box = Sandbox(channels: ["general"])
        let folder = box.export + "/general"
        box.day(in: folder, "2024-05-01.json", text: "hello")
        #expect(symlink("gone.json", folder + "/2024-05-02.json") == 0)
        try FileManager.default.createDirectory(atPath: folder + "/2024-05-03.json", withIntermediateDirectories: true)
        #expect(mkfifo(folder + "/2024-05-04.json", 0o600) == 0)
        box.day(in: folder, "2024-05-05.json", text: "still read")
        // Would hang here if the FIFO were opened for reading.
        let (result, _) = try box.read()
        #expect(result.texts == ["hello", "still read"])
        #expect(result.diagnosticLines == [
            folder + "/2024-05-02.json: a dangling symbolic link, not a day file of messages",
            folder + "/2024-05-03.json: a folder named like a day file, not a day file of messages",
            folder + "/2024-05-04.json: a FIFO (named pipe), not opened, not a day file of messages",
        ])
        #expect(result.counts.recordsIn == 5 && result.counts.reconciles)
    }

    @Test func usersJSONThatIsNotAnArrayIsReported() throws {
        let box = Sandbox(channels: ["general"])
        box.write("users.json", #"{"U1": "ann"}"#)
        box.day(in: box.export + "/general", "2024-05-01.json", text: "hello")
        let (result, warnings) = try box.read()
        #expect(warnings.map(\.description) == [box.export + "/users.json:1: unknown schema: expected an array of users, found an object; user ids are shown instead of names"])
        #expect(result.records.map(\.senderName) == ["U1"])
    }

    @Test func theExportsOwnListsAreNotFollowedOutEither() throws {
        let box = Sandbox(channels: ["general"])
        box.day(in: box.export + "/general", "2024-05-01.json", text: "hello")
        _ = FileManager.default.createFile(atPath: box.outside + "/users.json", contents: Data(#"[{"id":"U1","name":"mallory"}]"#.utf8))
        try FileManager.default.removeItem(atPath: box.export + "/users.json")
        #expect(symlink("../outside/users.json", box.export + "/users.json") == 0)
        let (result, warnings) = try box.read()
        #expect(result.records.map(\.senderName) == ["U1"])
        #expect(warnings.map(\.description) == [box.export + "/users.json: a symbolic link leading out of the export (not followed), not the export's list of users; user ids are shown instead of names"])

        try FileManager.default.removeItem(atPath: box.export + "/channels.json")
        #expect(mkfifo(box.export + "/channels.json", 0o600) == 0)
        let error = try #require(openError(box.export))
        #expect(error.description == box.export + "/channels.json: a FIFO (named pipe), not opened, not the export's list of channels")
    }

    /// The same rules inside an archive: a "../" channel is rejected, a stored symbolic link is not followed.
    @Test func aHostileSlackArchiveIsReadSafely() throws {
        let path = corpus("exports/zip/slack-hostile.zip")
        let result = try readAll(path)
        #expect(result.texts == ["#general", "hello"])
        #expect(result.diagnosticLines == [
            path + ":general/2024-05-02.json: a symbolic link stored in the archive (not followed), not a day file of messages",
            path + ":channels.json:3: channel name \"../elsewhere\" is not a folder name inside the export (empty, \".\" or \"..\", or holding a path separator); its messages are not read",
        ])
    }
}
