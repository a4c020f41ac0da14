import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// Options that cannot apply are usage errors; failures to write are said and have their code.
@Suite struct InputOptionContractTests {
    @Test(arguments: ["logs/sample.jsonl", "exports/whatsapp/android-en_GB.txt", "exports/discord/channel.json"])
    func channelOnAOneConversationInputIsAUsageError(fixture: String) {
        let run = bubbles("render", corpus(fixture), "--channel", "general", "--width", "60")
        #expect(run.code == ExitCode.usage)
        #expect(run.output.isEmpty)
        // JSON Lines is read to its end first: a log without `conversation` holds one.
        #expect(run.errors.hasPrefix("bubbles: --channel applies only to an input with several conversations")
                || run.errors.hasPrefix("bubbles: --channel chose nothing"))
        #expect(run.errors.contains("holds one conversation"))
        #expect(run.errors.contains("usage: bubbles render"))
    }

    /// A `--channel` naming none of the conversations is the same usage error (exit 2, usage)
    /// whether the input is an export, where it is found on opening, or JSON Lines, where it is
    /// found at the end; the reason names the conversations there are.
    @Test(arguments: [
        ("exports/telegram/full/result.json", "nope", "the export has 2:"),
        ("exports/slack/export", "nope", "the export has #"),
        ("exports/slack/export/general", "random", "this channel folder holds #general alone"),
        ("logs/conversations.jsonl", "nope", "the log has"),
    ])
    func aChannelNamingNoConversationIsAUsageErrorForEveryInput(fixture: String, channel: String, names: String) {
        let run = bubbles("render", corpus(fixture), "--channel", channel, "--width", "60")
        #expect(run.code == ExitCode.usage, "\(fixture): \(run.errors)")
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("bubbles: --channel chose nothing: "), "\(run.errors)")
        #expect(run.errors.contains("\"\(channel)\""))
        #expect(run.errors.contains(names), "\(run.errors)")
        #expect(run.errors.contains("usage: bubbles render"))
    }

    @Test func channelStillChoosesInAnExportWithSeveral() {
        let run = bubbles("heights", corpus("exports/slack/export"), "--channel", "general", "--width", "60")
        #expect(run.code == ExitCode.success)
        #expect(!run.output.isEmpty)
    }

    /// `bubbles convert <(cat chat.txt)` once said "0 records" with exit 0: the pipe was read twice.
    @Test func convertThroughAProcessSubstitutionPipeKeepsEveryMessage() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: corpus("exports/whatsapp/android-en_GB.txt"))))
        let fromFile = bubbles("convert", corpus("exports/whatsapp/android-en_GB.txt"), "--tz", "UTC")
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writeEnd = fds[1]
        let writer = Thread {
            var rest = bytes[...]
            while !rest.isEmpty {
                let written = rest.withUnsafeBytes { write(writeEnd, $0.baseAddress!, $0.count) }
                guard written > 0 else { break }
                rest = rest.dropFirst(written)
            }
            close(writeEnd)
        }
        writer.start()
        let run = bubbles("convert", "/dev/fd/\(fds[0])", "--tz", "UTC", "--verbose")
        close(fds[0])
        #expect(run.code == ExitCode.success)
        #expect(!run.output.isEmpty && run.output == fromFile.output)
        #expect(run.errors.contains("records, \(fromFile.outputLines.count) written, 0 rejected"))
    }

    /// `bubbles render log > /dev/full`: the README's exit-code table names a failed write.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full (Linux)"))
    func aFullDiskIsReportedWithExitCodeThree() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0, "/dev/full is missing")
        defer { close(fd) }
        let errors = StringSink()
        let context = CommandContext(output: FileSink(fileDescriptor: fd), errors: errors, environment: [:])
        let code = BubblesCommandLine.run(["render", corpus("logs/sample.jsonl"), "--width", "80"], context: context)
        #expect(code == ExitCode.failure)
        #expect(errors.text.contains("bubbles: cannot write output: No space left on device"))
    }
}
